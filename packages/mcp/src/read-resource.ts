import type { ImagePart, TextPart } from '@rxagent/core';
import { McpConnectionError } from './mcp-errors.js';
import type { McpConnection } from './mcp-connection.js';
import { resourceParts } from './map-content.js';

/**
 * A resource as read from an MCP server: `parts` for a message or a tool result (text as is,
 * images as images, other binaries described), `contents` as the server sent them.
 *
 * @example
 * const { parts } = await readMcpResource(connection, 'demo://resource/static/document/architecture.md');
 */
export interface McpResource {
  readonly uri: string;
  readonly parts: (TextPart | ImagePart)[];
  readonly contents: readonly { uri: string; mimeType?: string; text?: string; blob?: string }[];
}

/** The live client, or a clear error saying why there is none. */
export function liveClient(connection: McpConnection) {
  const client = connection.client;
  if (!client) {
    throw new McpConnectionError(
      connection.name,
      `The MCP server "${connection.name}" is ${connection.status}: wait until it is connected again.`,
    );
  }
  return client;
}

/**
 * Reads a resource of an MCP server (`resources/read`). Rejects with `McpConnectionError` when
 * the server is not connected, with the SDK's `McpError` when the server refuses.
 *
 * @example
 * const doc = await readMcpResource(connection, 'file:///project/README.md');
 * agent.prompt({ role: 'user', content: [{ type: 'text', text: 'Summarize:' }, ...doc.parts], timestamp: Date.now() });
 */
export async function readMcpResource(
  connection: McpConnection,
  uri: string,
  options: { signal?: AbortSignal } = {},
): Promise<McpResource> {
  const result = await liveClient(connection).readResource(
    { uri },
    options.signal ? { signal: options.signal } : {},
  );
  const contents = result.contents.map((c) => ({ ...c }));
  return { uri, parts: contents.flatMap(resourceParts), contents };
}
