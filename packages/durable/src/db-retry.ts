import type { RunControl } from './run-control.js';

/** How long to wait before trying the database again: it is restarting, or unreachable. */
const RETRY_MS = [50, 100, 200, 500, 1000, 2000];

/** PostgreSQL error codes and socket errors that mean "the database is not there now". */
function unavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('08') || code.startsWith('57P')) return true; // connection, shutdown
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT'].includes(code)) return true;
  }
  return typeof message === 'string' && /Connection terminated|connection.*(closed|ended)/i.test(message);
}

/**
 * Runs a query of a durable run's records, again and again while the database is down (the
 * run waits, as DBOS's own writes do), until it answers; other errors are thrown. A run that was
 * fenced stops trying: it never settles.
 */
export async function whileUnavailable<T>(control: RunControl, query: () => Promise<T>): Promise<T> {
  for (let failures = 0; ; failures++) {
    try {
      return await query();
    } catch (error) {
      if (!unavailable(error)) throw error;
      if (control.isFenced) return new Promise<T>(() => undefined);
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
    }
  }
}
