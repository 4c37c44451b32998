import { RxAgentError } from '@rxagent/core';
import { DurableUnavailableError, DurableUsageError } from './durable-errors.js';

/**
 * A database call with a deadline: past `timeoutMs`, or when PostgreSQL refuses the connection,
 * it fails with `DurableUnavailableError` (the work itself may still land later).
 */
export function boundedCalls(
  timeoutMs: number,
  isClosed: () => boolean,
): <T>(what: string, work: () => Promise<T>) => Promise<T> {
  return async <T>(what: string, work: () => Promise<T>): Promise<T> => {
    if (isClosed()) throw new DurableUsageError(`${what}: this client was closed.`);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new DurableUnavailableError(
              `${what}: PostgreSQL did not answer within ${timeoutMs} ms. Nothing was lost; retry ` +
                '(startRun with the same runId is idempotent).',
            ),
          ),
        timeoutMs,
      );
    });
    try {
      return await Promise.race([work(), timeout]);
    } catch (error) {
      if (RxAgentError.isInstance(error)) throw error; // ours (the timeout included) say what to do already
      if (isConnectionError(error)) {
        throw new DurableUnavailableError(
          `${what}: PostgreSQL is unreachable (${(error as Error).message}). Nothing was lost; retry when it is back.`,
          { cause: error },
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
    }
  };
}

function isConnectionError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = String((error as Error | null)?.message ?? '');
  return (
    ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', '57P01', '57P03', '08006', '08001'].includes(
      String(code),
    ) || /connect|terminat|timeout/i.test(message)
  );
}
