import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ToolListChangedNotificationSchema,
  type Tool as McpWireTool,
} from '@modelcontextprotocol/sdk/types.js';
import { createClient } from './client/create-client.js';
import type { ConnectionEnv } from './connection-env.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';

/** One live connection: a client on one transport (for stdio, one process). */
export interface McpSession {
  readonly client: Client;
  readonly transport: Transport;
}

export interface SessionHooks {
  /** The transport closed (the process exited, the stream ended) without `close()` asking. */
  onClosed(session: McpSession): void;
  /** The server said its tool list changed. */
  onToolsChanged(session: McpSession): void;
}

function createTransport(server: McpServerConfig, env: ConnectionEnv): Transport {
  if (isStdioServer(server)) {
    return new StdioClientTransport({
      command: server.command,
      args: [...(server.args ?? [])],
      // Only the SDK's safe defaults (PATH, HOME, …) and what the config names: secrets in this
      // process's environment stay here.
      env: { ...getDefaultEnvironment(), ...(server.env ?? {}) },
      ...(server.cwd ? { cwd: server.cwd } : {}),
      stderr: server.stderr ?? 'ignore',
    });
  }
  return new StreamableHTTPClientTransport(new URL(server.url), {
    requestInit: { headers: { ...(server.headers ?? {}) } },
    ...(env.fetch ? { fetch: env.fetch } : {}),
  });
}

/** Starts the transport, initializes the MCP session and wires its notifications and requests. */
export async function openSession(
  server: McpServerConfig,
  env: ConnectionEnv,
  hooks: SessionHooks,
): Promise<McpSession> {
  const client = createClient(server, env);
  const transport = createTransport(server, env);
  const session: McpSession = { client, transport };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => hooks.onToolsChanged(session));
  client.onclose = () => hooks.onClosed(session);
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  return session;
}

/**
 * The server's tools, following pagination, at most `maxTools` (`more` says whether it has
 * more). A page without tools ends the list, so a server cannot page forever.
 */
export async function listAllTools(
  session: McpSession,
  maxTools: number,
): Promise<{ tools: McpWireTool[]; more: boolean }> {
  const tools: McpWireTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.tools.length > 0 ? page.nextCursor : undefined;
  } while (cursor && tools.length <= maxTools);
  return { tools: tools.slice(0, maxTools), more: tools.length > maxTools || cursor !== undefined };
}
