import type { AgentEvent, Message } from '@rxagent/core';
import type {
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextProjection,
} from '@rxagent/core/context';
import { defer, from, isObservable, Observable, of, type ObservableInput } from 'rxjs';
import { recorded } from './recorded.js';
import type { RunRecords } from './run-records.js';

/** What a projection records: its events (deltas left out), and its messages unless it kept the input. */
interface ProjectionRecord {
  events: AgentEvent[];
  projection: Omit<ContextProjection, 'messages'> & { messages?: readonly Message[] };
}

const STREAMING = new Set(['summary-update', 'context-usage', 'message-update', 'output-update']);

function isProjection(value: unknown): value is ContextProjection {
  return (
    typeof value === 'object' &&
    value !== null &&
    !isObservable(value) &&
    !('type' in value) &&
    Array.isArray((value as ContextProjection).messages)
  );
}

/**
 * A run's context manager with each projection a recorded step (under the step it prepared):
 * its summary call streams live the first time, and its result (the projection and the events
 * it gave) is stored; a replay after a crash gets the recorded projection and events without
 * calling the summary model again.
 */
export function durableContextManager(manager: ContextManager, records: RunRecords): ContextManager {
  const step = (
    key: string,
    input: readonly Message[],
    work: () => ContextProjection | ObservableInput<ContextProgress>,
  ): Observable<ContextProgress> =>
    new Observable<ContextProgress>((subscriber) => {
      let live = false;
      const recording = recorded<ProjectionRecord>(records, key, () => {
        live = true;
        return new Promise<ProjectionRecord>((resolve, reject) => {
          const events: AgentEvent[] = [];
          let projection: ContextProjection | undefined;
          const value = work();
          (isProjection(value) ? of(value) : from(value)).subscribe({
            next: (p) => {
              if (isProjection(p)) projection = p;
              else {
                if (!subscriber.closed) subscriber.next(p);
                if (!STREAMING.has(p.type)) events.push(p);
              }
            },
            error: reject,
            complete: () => {
              if (!projection)
                return reject(new Error('The context manager completed without a projection.'));
              const { messages, ...rest } = projection;
              resolve({ events, projection: messages === input ? rest : { ...rest, messages } });
            },
          });
        });
      });
      recording.then(
        (record) => {
          if (subscriber.closed) return;
          if (!live) for (const event of record.events) subscriber.next(event);
          subscriber.next({ ...record.projection, messages: record.projection.messages ?? input });
          subscriber.complete();
        },
        (error: unknown) => subscriber.error(error),
      );
    });
  const durable: ContextManager = {
    project: (messages, context: ContextManagerContext) =>
      step(`context:project:${context.step}`, messages, () => manager.project(messages, context)),
  };
  const recover = manager.recoverOverflow?.bind(manager);
  if (recover) {
    durable.recoverOverflow = (messages, error, context) =>
      defer(() =>
        step(`context:overflow:${context.step}`, messages, () => recover(messages, error, context)),
      );
  }
  if (manager.usage) durable.usage = () => manager.usage?.();
  if (manager.sync) durable.sync = (messages, state) => manager.sync?.(messages, state);
  return durable;
}
