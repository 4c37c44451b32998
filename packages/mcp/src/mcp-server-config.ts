import type { SchedulerLike } from 'rxjs';
import type { McpOAuth } from './auth/oauth-config.js';
import type { McpSamplingOptions } from './client/answer-sampling.js';
import type { McpRoot } from './client/roots.js';
import type { FetchLike } from './limits/limit-responses.js';
import type { McpLimits } from './limits/mcp-limits.js';

/**
 * What a permission policy can read about an MCP tool: its server, its name on the server, and
 * the hints the server declares (`readOnlyHint`, `destructiveHint`, … — hints, not guarantees).
 *
 * @example
 * const risky = (info: McpToolInfo) => info.annotations.destructiveHint === true;
 */
export interface McpToolInfo {
  /** The server's configured name. */
  readonly server: string;
  /** The tool's name on the server (before any prefix). */
  readonly name: string;
  readonly title?: string;
  readonly annotations: McpToolAnnotations;
  /** The JSON Schema the server declares for `structuredContent`, when it has one. */
  readonly outputSchema?: Record<string, unknown>;
}

/**
 * The tool annotations of the MCP specification. Untrusted: a server says what it likes.
 *
 * @example
 * const annotations: McpToolAnnotations = { readOnlyHint: true, destructiveHint: false };
 */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/**
 * Which tools of a server wait for approval: all (`true`), none (`false`, the default), tool
 * name patterns (`*` matches any run of characters, matched against the server's tool name),
 * or a function of the tool.
 *
 * @example
 * const approval: McpApproval = ['write_*', 'delete_*'];
 * const destructive: McpApproval = (tool) => tool.annotations.readOnlyHint !== true;
 */
export type McpApproval = boolean | readonly string[] | ((tool: McpToolInfo) => boolean);

/**
 * How a dropped connection is re-established: exponential backoff on the scheduler.
 *
 * @example
 * const reconnect: McpReconnectOptions = { maxAttempts: 5, initialDelayMs: 500, maxDelayMs: 10_000 };
 */
export interface McpReconnectOptions {
  /** Attempts after a drop before the server is given up (default 5; 0 never reconnects). */
  maxAttempts?: number;
  /** First delay, doubled each attempt (default 500 ms). */
  initialDelayMs?: number;
  /** Cap of any delay (default 30 000 ms). */
  maxDelayMs?: number;
}

/**
 * What every server configuration may say besides where the server is.
 *
 * @example
 * const common: McpServerOptions = { name: 'files', prefix: 'fs', needsApproval: ['write_*'] };
 */
export interface McpServerOptions {
  /** Names the server in tool names, messages and errors: letters, digits, `_`, `-`. */
  name: string;
  /**
   * Put before each tool name as `<prefix>_<tool>`. Default none (as `false`): a tool keeps the
   * server's name for it however many servers there are, so adding a server never renames
   * tools; give a prefix where two servers would clash.
   */
  prefix?: string | false;
  /** Which tools need approval (default none). */
  needsApproval?: McpApproval;
  /** Only these tools (names on the server, `*` patterns); default all. */
  include?: readonly string[];
  /** Leave these tools out (names on the server, `*` patterns). */
  exclude?: readonly string[];
  /** On an interrupting steer: `'cancel'` cancels this server's running calls (MCP cancellation); default `'block'`. */
  interrupt?: 'block' | 'cancel';
  /** Per-call timeout of this server's tools (default: the run's `toolTimeoutMs`). */
  timeoutMs?: number;
  reconnect?: McpReconnectOptions;
  /** Where reconnect backoff waits (default `asyncScheduler`): give it the run's scheduler. */
  scheduler?: SchedulerLike;
  /** Bounds on what the server may send (sizes of messages and results, parts, tools). */
  limits?: McpLimits;
  /**
   * Let the server ask a person for information (`elicitation/create`, form mode) during a
   * call: the run emits `elicitation-request` and waits like an approval (`Agent.respond`, the
   * run's `elicit`). Declared to the server only when true. Default false.
   */
  elicitation?: boolean;
  /** Let the server ask a model for a completion (`sampling/createMessage`), answered by the model given here. */
  sampling?: McpSamplingOptions;
  /** The roots offered to the server (`roots/list`): absolute paths or `file://` URIs. Declared only when given. */
  roots?: readonly McpRoot[];
}

/**
 * A server started as a child process, speaking MCP over its stdin/stdout. The process gets
 * only the MCP SDK's safe default environment (PATH, HOME, …) plus `env`: secrets in this
 * process's environment are not passed on unless you name them.
 *
 * @example
 * const everything: McpStdioServer = { name: 'everything', command: 'npx', args: ['@modelcontextprotocol/server-everything'] };
 */
export interface McpStdioServer extends McpServerOptions {
  command: string;
  args?: readonly string[];
  env?: Record<string, string>;
  cwd?: string;
  /** Where the server's stderr goes (default `'ignore'`). */
  stderr?: 'inherit' | 'ignore';
}

/**
 * A server reached over Streamable HTTP. `headers` (for example `Authorization`) go with every
 * request and never appear in events, results or errors.
 *
 * @example
 * const remote: McpHttpServer = { name: 'docs', url: 'http://127.0.0.1:3001/mcp', headers: { Authorization: `Bearer ${token}` } };
 */
export interface McpHttpServer extends McpServerOptions {
  url: string | URL;
  headers?: Record<string, string>;
  /** OAuth 2.1 authorization (sign-in, client credentials, cross-app access). */
  auth?: McpOAuth;
  /** The `fetch` requests go through (a proxy, custom TLS, logging); rxagent's limits and OAuth wrap it. */
  fetch?: FetchLike;
}

/**
 * An MCP server: a command (stdio) or a URL (Streamable HTTP).
 *
 * @example
 * const servers: McpServerConfig[] = [
 *   { name: 'everything', command: 'node', args: ['server.js', 'stdio'] },
 *   { name: 'docs', url: 'http://127.0.0.1:3001/mcp' },
 * ];
 */
export type McpServerConfig = McpStdioServer | McpHttpServer;

/** @internal */
export function isStdioServer(server: McpServerConfig): server is McpStdioServer {
  return typeof (server as McpStdioServer).command === 'string';
}
