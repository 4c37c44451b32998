import type { Observable, Subscription } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import { EventBufferOverflowError } from './result-errors.js';

/**
 * Options of `eachEvent`.
 *
 * @example
 * eachEvent(run$, { bufferSize: 5000 });
 */
export interface EachEventOptions {
  /** Most events held while the loop body is busy (default 10 000); more cancels the run with
   * `EventBufferOverflowError` rather than dropping events. */
  bufferSize?: number;
}

type Waiter = { resolve(r: IteratorResult<AgentEvent>): void; reject(e: unknown): void };

/**
 * A run as an async iterable, for `for await`. The run starts with the first `next()`; events
 * that come while the loop body is busy wait in a bounded buffer; leaving the loop (`break`,
 * `return`, a throw) unsubscribes the run, which cancels it. The run's error is thrown from
 * the loop.
 *
 * @param run$ A run, e.g. `runAgent(config)`.
 * @param options `bufferSize`.
 * @return An `AsyncIterableIterator` of the run's events.
 *
 * @example
 * for await (const event of eachEvent(runAgent(config))) {
 *   if (event.type === 'message-update') process.stdout.write(event.delta.text);
 *   if (event.type === 'tool-start' && event.toolName === 'bash') break; // cancels the run
 * }
 */
export function eachEvent(
  run$: Observable<AgentEvent>,
  options: EachEventOptions = {},
): AsyncIterableIterator<AgentEvent> {
  const bufferSize = options.bufferSize ?? 10_000;
  const buffer: AgentEvent[] = [];
  let head = 0;
  let waiter: Waiter | undefined;
  let done = false;
  let failure: { error: unknown } | undefined;
  let subscription: Subscription | undefined;

  const settle = () => {
    if (!waiter) return;
    const w = waiter;
    if (head < buffer.length) {
      waiter = undefined;
      w.resolve({ value: take(), done: false });
    } else if (failure) {
      waiter = undefined;
      const { error } = failure;
      failure = undefined;
      done = true;
      w.reject(error);
    } else if (done) {
      waiter = undefined;
      w.resolve({ value: undefined, done: true });
    }
  };
  const take = (): AgentEvent => {
    const event = buffer[head] as AgentEvent;
    buffer[head++] = undefined as unknown as AgentEvent;
    // Compact now and then so a long run does not keep a growing array of holes.
    if (head > 1024 && head * 2 > buffer.length) {
      buffer.splice(0, head);
      head = 0;
    }
    return event;
  };
  const stop = () => {
    subscription?.unsubscribe();
    subscription = undefined;
  };
  const start = () => {
    subscription = run$.subscribe({
      next: (event) => {
        if (done || failure) return;
        if (buffer.length - head >= bufferSize) {
          failure = { error: new EventBufferOverflowError(bufferSize) };
          stop();
        } else buffer.push(event);
        settle();
      },
      error: (error: unknown) => {
        failure = { error };
        settle();
      },
      complete: () => {
        done = true;
        settle();
      },
    });
    // A synchronous run overflowed before `subscription` was set: cancel it now.
    if (failure) stop();
  };

  let started = false;
  const iterator: AsyncIterableIterator<AgentEvent> = {
    next() {
      if (!started) {
        started = true;
        start();
      }
      if (head < buffer.length) return Promise.resolve({ value: take(), done: false });
      if (failure) {
        const { error } = failure;
        failure = undefined;
        done = true;
        // The run's own error, whatever it is, as `for await` would see it from the Observable.
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors
        return Promise.reject(error);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => {
        waiter = { resolve, reject };
      });
    },
    return() {
      done = true;
      started = true;
      stop();
      buffer.length = 0;
      head = 0;
      settle();
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
