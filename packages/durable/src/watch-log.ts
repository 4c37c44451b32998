import type { AgentEvent, SerializedError } from '@rxagent/core';
import { reviveProviderError } from '@rxagent/core/provider';
import { createWireDecoder } from '@rxagent/core/streams';
import type { Pool } from 'pg';
import { Observable } from 'rxjs';
import { DurableRunEndedError } from './durable-errors.js';
import { readLog, type LogRow } from './event-log.js';
import type { EventListener } from './event-listener.js';

/** How long a watcher waits for the end of a run cancelled while it ran (its worker logs it). */
const CANCEL_GRACE_MS = 5000;

/** Rows a watcher reads at once. */
const READ_LIMIT = 1000;

const TERMINAL = new Set(['SUCCESS', 'ERROR', 'CANCELLED', 'MAX_RECOVERY_ATTEMPTS_EXCEEDED']);

/** Where a watcher reads a run from. */
export interface LogSource {
  pool: Pool;
  listener: EventListener;
  pollMs: number;
  /** The run's workflow status (`undefined`: unknown run). */
  statusOf(runId: string): Promise<{ status?: unknown } | undefined>;
}

/**
 * A run's events from its log: from the start, then live (a notification or the poll wakes the
 * reader), decoded from the wire format (partial messages rebuilt from the deltas, references
 * resolved by row key), completing after `agent-end` and failing with the run's error or, for
 * a run that ended without an end, `DurableRunEndedError`.
 */
export function watchLog(source: LogSource, runId: string): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    let after = 0;
    let rowsRead = 0;
    const decoder = createWireDecoder();
    let stopped = false;
    let wake: (() => void) | undefined;
    // A notification that came while the log was being read: read again at once.
    let notified = false;
    const unlisten = source.listener.on(runId, () => {
      notified = true;
      wake?.();
    });
    const sleep = () =>
      new Promise<void>((resolve) => {
        if (notified) return resolve();
        source.listener.reconnect();
        const timer = setTimeout(resolve, source.pollMs);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    const emit = ({ key, body }: LogRow): boolean => {
      if (body.type === 'run-error' && 'error' in body) {
        subscriber.error(reviveRunError(body.error as SerializedError));
        return true;
      }
      let event: AgentEvent | undefined;
      try {
        event = decoder.decode({ ...body, seq: ++rowsRead }, key ?? undefined);
      } catch (error) {
        subscriber.error(error);
        return true;
      }
      if (!event) return false;
      subscriber.next(event);
      if (event.type === 'agent-end') {
        subscriber.complete();
        return true;
      }
      return false;
    };
    void (async () => {
      let idle = 0;
      let endedSince: number | undefined;
      while (!stopped) {
        let rows;
        notified = false;
        try {
          rows = await readLog(source.pool, runId, after, READ_LIMIT);
        } catch {
          await sleep(); // the database is restarting: keep the place and read again
          continue;
        }
        for (const row of rows) {
          after = row.seq;
          if (stopped || emit(row)) return;
        }
        if (rows.length > 0) {
          idle = 0;
          // A full page may have more behind it; otherwise the next rows come with a notification.
          if (rows.length < READ_LIMIT) await sleep();
          continue;
        }
        // Nothing new: a run that ended without an agent-end (cancelled before it ran, failed
        // outside the loop) would leave the watcher waiting forever. A cancelled run that had
        // started gets time for its worker to see the cancel and log the end.
        if (++idle % 4 === 0) {
          const state = await source.statusOf(runId).catch(() => undefined);
          const status = String(state?.status);
          if (state && TERMINAL.has(status)) {
            endedSince ??= Date.now();
            const started = after > 0;
            if (!started || status !== 'CANCELLED' || Date.now() - endedSince > CANCEL_GRACE_MS) {
              const last = await readLog(source.pool, runId, after).catch(() => []);
              for (const row of last) if (emit(row)) return;
              subscriber.error(
                new DurableRunEndedError(
                  `Durable run "${runId}" ended as ${status} without an agent-end` +
                    (status === 'CANCELLED' && !started ? ' (it was cancelled before it started).' : '.'),
                  status,
                ),
              );
              return;
            }
          }
        }
        await sleep();
      }
    })();
    return () => {
      stopped = true;
      unlisten();
      wake?.();
    };
  });
}

/** A run's stored error as a typed error: provider errors keep their class, others become `DurableRunEndedError`. */
function reviveRunError(error: SerializedError): Error {
  if (error.retryable !== undefined) return reviveProviderError(error);
  return new DurableRunEndedError(`The durable run failed: ${error.name}: ${error.message}`, 'ERROR');
}
