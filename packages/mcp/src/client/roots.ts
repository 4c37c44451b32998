import { pathToFileURL } from 'node:url';
import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { McpConfigError } from '../mcp-errors.js';

/**
 * A root the client offers a server (`roots/list`): a `file://` URI and an optional name. A
 * plain string is an absolute path (or a `file://` URI).
 *
 * @example
 * const roots: McpRoot[] = ['/work/project', { uri: 'file:///work/docs', name: 'docs' }];
 */
export type McpRoot = string | { uri: string; name?: string };

/** Roots as the protocol sends them; `McpConfigError` for one that is not a file. */
export function toWireRoots(server: string, roots: readonly McpRoot[]): Root[] {
  return roots.map((root) => {
    const given = typeof root === 'string' ? { uri: root } : root;
    const uri = given.uri.startsWith('file://') ? given.uri : pathToFileURL(given.uri).href;
    if (
      !given.uri.startsWith('file://') &&
      !given.uri.startsWith('/') &&
      !/^[A-Za-z]:[\\/]/.test(given.uri)
    ) {
      throw new McpConfigError(
        `The MCP server "${server}" has a root that is neither an absolute path nor a file:// URI: ${JSON.stringify(given.uri)}.`,
      );
    }
    return given.name ? { uri, name: given.name } : { uri };
  });
}
