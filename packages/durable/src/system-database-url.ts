// DBOS keeps a system-database connection from idling in a transaction (60 s): on a pool it
// owns it sends `SET idle_in_transaction_session_timeout` from the pool's `connect` event,
// without waiting, and the borrower's first query then runs while that one is in flight — which
// pg 8.23 reports on stderr as a deprecation ("client.query() when the client is already
// executing a query"). Given the same setting in the URL (libpq `options`, applied by the server
// at connection start), DBOS leaves its `connect` hook out: same protection, no notice.
const IDLE_IN_TRANSACTION_MS = 60_000;

/**
 * The URL DBOS gets for its system database: `databaseUrl` with
 * `options=-c idle_in_transaction_session_timeout=60000` added, unless it sets that already
 * (a URL that is not one is passed as it is: DBOS reports it).
 *
 * @example
 * systemDatabaseUrl('postgres://app@127.0.0.1:5432/agents');
 * // 'postgres://app@127.0.0.1:5432/agents?options=-c+idle_in_transaction_session_timeout%3D60000'
 */
export function systemDatabaseUrl(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    return databaseUrl;
  }
  const options = url.searchParams.get('options') ?? '';
  if (options.includes('idle_in_transaction_session_timeout')) return databaseUrl;
  const setting = `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_MS}`;
  url.searchParams.set('options', options ? `${options} ${setting}` : setting);
  return url.toString();
}
