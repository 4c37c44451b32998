import type { Root } from '@modelcontextprotocol/sdk/types.js';
import { oauthFetch } from './auth/oauth-fetch.js';
import { McpOAuthProvider } from './auth/oauth-provider.js';
import { CallsInFlight } from './calls-in-flight.js';
import { toWireRoots } from './client/roots.js';
import { limitResponses, type FetchLike } from './limits/limit-responses.js';
import { resolveLimits, type ResolvedMcpLimits } from './limits/mcp-limits.js';
import { redactErrorBodies } from './limits/redact-error-bodies.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';

/**
 * What a connection keeps across its sessions (reconnections): its limits, its calls in
 * flight, the roots it offers, and over HTTP the `fetch` its transport uses — the
 * application's `fetch` hook, under the response limits, under OAuth when configured.
 */
export interface ConnectionEnv {
  readonly limits: ResolvedMcpLimits;
  readonly calls: CallsInFlight;
  /** The roots offered now (`setRoots` changes them). */
  roots: Root[];
  readonly fetch?: FetchLike;
  readonly auth?: McpOAuthProvider;
}

/** The env of a server's connection; throws `McpConfigError` for limits or roots that cannot work. */
export function connectionEnv(server: McpServerConfig): ConnectionEnv {
  const limits = resolveLimits(server.name, server.limits);
  const roots = toWireRoots(server.name, server.roots ?? []);
  const env = { limits, calls: new CallsInFlight(), roots };
  if (isStdioServer(server)) return env;
  const auth = server.auth ? new McpOAuthProvider(server.name, new URL(server.url), server.auth) : undefined;
  const headerValues = Object.values(server.headers ?? {});
  const base = redactErrorBodies(
    limitResponses(server.fetch ?? ((url, init) => fetch(url, init)), limits.maxMessageBytes),
    () => [...headerValues, ...(auth?.secrets() ?? [])],
  );
  return auth ? { ...env, fetch: oauthFetch(auth, base), auth } : { ...env, fetch: base };
}
