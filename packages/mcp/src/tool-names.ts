import { createHash } from 'node:crypto';
import { McpConfigError } from './mcp-errors.js';

const MAX = 64;
const INVALID = /[^a-zA-Z0-9_-]+/g;

/** A prefix the user gave must already be a valid name part: fixing it silently would surprise. */
export function checkPrefix(prefix: string, server: string): void {
  if (!/^[a-zA-Z0-9_-]{1,32}$/.test(prefix)) {
    throw new McpConfigError(
      `Invalid prefix ${JSON.stringify(prefix)} for MCP server "${server}": use 1 to 32 letters, digits, "_" or "-" ` +
        '(it goes into tool names, which providers restrict to those characters).',
    );
  }
}

/** The default prefix for a server: its name with what providers refuse replaced by `_`. */
export function defaultPrefix(server: string): string {
  return server.replace(INVALID, '_').slice(0, 32) || 'mcp';
}

/**
 * The name the model sees: `<prefix>_<tool>`, characters providers refuse replaced by `_`, and
 * names over 64 characters shortened with a hash of the original so that they stay distinct.
 */
export function modelToolName(prefix: string | undefined, name: string): string {
  const full = (prefix ? `${prefix}_${name}` : name).replace(INVALID, '_') || '_';
  if (full.length <= MAX) return full;
  const hash = createHash('sha256')
    .update(`${prefix ?? ''}\0${name}`)
    .digest('hex')
    .slice(0, 8);
  return `${full.slice(0, MAX - 9)}_${hash}`;
}
