import type { McpSession } from './open-session.js';

/**
 * Where a connection is: `connected`; `reconnecting` after a drop (calls wait for it, within
 * their timeout); `failed` when the reconnect attempts ran out; `closed` after `close()`.
 *
 * @example
 * connection.status$.subscribe((s) => s === 'failed' && console.error('server gone'));
 */
export type McpConnectionStatus = 'connected' | 'reconnecting' | 'failed' | 'closed';

/** What a connection holds: its live session, or why it has none. */
export type ConnectionState =
  | { readonly status: 'connected'; readonly session: McpSession }
  | { readonly status: 'reconnecting' }
  | { readonly status: 'failed' | 'closed' };
