import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ToolListChangedNotificationSchema,
  type Tool as McpWireTool,
} from '@modelcontextprotocol/sdk/types.js';
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

function createTransport(server: McpServerConfig): Transport {
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
  });
}

/** Starts the transport, initializes the MCP session and wires its notifications. */
export async function openSession(server: McpServerConfig, hooks: SessionHooks): Promise<McpSession> {
  const client = new Client({ name: 'rxagent', version: '0.1.0' }, { capabilities: {} });
  const transport = createTransport(server);
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

/** Every tool of the server, following pagination. */
export async function listAllTools(session: McpSession): Promise<McpWireTool[]> {
  const tools: McpWireTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await session.client.listTools(cursor ? { cursor } : undefined);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}
