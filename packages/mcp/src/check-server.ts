import { checkOAuth } from './auth/check-oauth.js';
import { McpConfigError } from './mcp-errors.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';
import { checkPrefix } from './tool-names.js';

/** A URL as a message may show it: query strings and user info may carry tokens, so only where the server is. */
export function publicUrl(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

/** Throws `McpConfigError` for a server configuration that cannot work (the message says what to change). */
export function checkServer(server: McpServerConfig): void {
  if (typeof server?.name !== 'string' || !server.name.trim()) {
    throw new McpConfigError(
      'Every MCP server needs a "name" (it names the server in tool names and messages).',
    );
  }
  if (isStdioServer(server)) {
    if (!server.command.trim()) {
      throw new McpConfigError(
        `The MCP server "${server.name}" has an empty "command": give the program to start.`,
      );
    }
  } else if (
    typeof (server as { url?: unknown }).url !== 'string' &&
    !((server as { url?: unknown }).url instanceof URL)
  ) {
    throw new McpConfigError(
      `The MCP server "${server.name}" needs either "command" (stdio) or "url" (Streamable HTTP).`,
    );
  } else {
    try {
      new URL(server.url);
    } catch {
      throw new McpConfigError(
        `The MCP server "${server.name}" has an invalid "url": give an absolute http(s) URL.`,
      );
    }
  }
  if (typeof server.prefix === 'string') checkPrefix(server.prefix, server.name);
  if (isStdioServer(server) && (server as { auth?: unknown }).auth !== undefined) {
    throw new McpConfigError(
      `The MCP server "${server.name}" is started over stdio: "auth" is for Streamable HTTP servers (give it credentials in "env").`,
    );
  }
  if (!isStdioServer(server) && server.auth !== undefined) checkOAuth(server.name, server.auth);
  if (server.sampling !== undefined && typeof server.sampling?.model?.stream !== 'function') {
    throw new McpConfigError(
      `The MCP server "${server.name}" has "sampling" without a model: give { model } (the model that answers its requests).`,
    );
  }
}
