import { checkServer, publicUrl } from './check-server.js';
import { connectionEnv } from './connection-env.js';
import { McpAuthError, McpConnectionError } from './mcp-errors.js';
import { McpConnection } from './mcp-connection.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';
import { openSession, type McpSession } from './open-session.js';

/**
 * Options of `connectMcp` besides the server itself.
 *
 * @example
 * const options: ConnectMcpOptions = { prefixByDefault: true };
 */
export interface ConnectMcpOptions {
  /** Prefix tool names with the server's name unless the config says otherwise (`mcpTools` does for several servers). */
  prefixByDefault?: boolean;
}

/**
 * Connects to one MCP server (starting its process for stdio) and lists its tools. Rejects
 * with an `McpConnectionError` when the server cannot be started or reached, with an
 * `McpConfigError` for a configuration that cannot work. A server alone gets no name prefix
 * unless its config gives one.
 *
 * @example
 * const files = await connectMcp({ name: 'files', command: 'npx', args: ['-y', 'some-mcp-server'] });
 * runAgent({ model, prompt: 'List the files', tools: files.tools });
 */
export async function connectMcp(
  server: McpServerConfig,
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  checkServer(server);
  const env = connectionEnv(server);
  let session: McpSession | undefined;
  let connection: McpConnection | undefined;
  const early: McpSession[] = [];
  try {
    // The first session's hooks reach the connection once it exists.
    session = await openSession(server, env, {
      onClosed: (s) => (connection ? connection.lost(s) : early.push(s)),
      onToolsChanged: () => void connection?.refreshTools(),
    });
    connection = new McpConnection(server, session, options, env);
    await connection.loadTools(session);
    if (early.length > 0) connection.lost(session);
    return connection;
  } catch (error) {
    await (connection ? connection.close() : session?.client.close().catch(() => undefined));
    // Its message is safe to show (no token, secret or response body); it says what to fix.
    if (McpAuthError.isInstance(error)) throw error;
    const where = isStdioServer(server) ? `start "${server.command}"` : `reach ${publicUrl(server.url)}`;
    throw new McpConnectionError(
      server.name,
      `Could not connect to the MCP server "${server.name}": failed to ${where}: ` +
        `${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}. Check the command or URL, and that the server speaks MCP.`,
      { cause: error },
    );
  }
}
