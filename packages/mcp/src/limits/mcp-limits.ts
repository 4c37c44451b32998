import { McpConfigError } from '../mcp-errors.js';

/**
 * Bounds on what a server may send, so that a hostile or broken server cannot run the agent
 * out of memory or stall it. Over a bound, the call (or the list) fails with a readable error;
 * the process and the run go on.
 *
 * @example
 * const limits: McpLimits = { maxResultBytes: 512 * 1024, maxTools: 200 };
 */
export interface McpLimits {
  /** Bytes of one message over HTTP (a JSON body, or one server-sent event). Default 8 MiB. */
  maxMessageBytes?: number;
  /** Bytes of text and image data of one tool result (what enters the transcript). Default 4 MiB. */
  maxResultBytes?: number;
  /** Content parts of one tool result. Default 1,000. */
  maxResultParts?: number;
  /** Tools read from one server; the rest are listed in `skipped`. Default 1,000. */
  maxTools?: number;
}

/** The limits with their defaults filled in. */
export type ResolvedMcpLimits = Required<McpLimits>;

/**
 * The defaults of `McpLimits`.
 *
 * @example
 * MCP_LIMIT_DEFAULTS.maxMessageBytes; // 8388608
 */
export const MCP_LIMIT_DEFAULTS: Readonly<ResolvedMcpLimits> = Object.freeze({
  maxMessageBytes: 8 * 1024 * 1024,
  maxResultBytes: 4 * 1024 * 1024,
  maxResultParts: 1_000,
  maxTools: 1_000,
});

/** A server's limits with the defaults filled in; `McpConfigError` for a value that is not a positive integer. */
export function resolveLimits(server: string, limits: McpLimits | undefined): ResolvedMcpLimits {
  const resolved = { ...MCP_LIMIT_DEFAULTS };
  for (const key of Object.keys(MCP_LIMIT_DEFAULTS) as (keyof McpLimits)[]) {
    const value = limits?.[key];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new McpConfigError(
        `The MCP server "${server}" has an invalid limits.${key}: received ${String(value)}; expected a positive integer.`,
      );
    }
    resolved[key] = value;
  }
  return resolved;
}
