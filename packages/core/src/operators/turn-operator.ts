import { Observable, Subscription, type TeardownLogic } from 'rxjs';
import type { LoopEvent, LoopOperator, RunContext, TurnContext } from '../loop/loop-event.js';

/** How a turn handler talks back: emit events, then `done()` (passes the turn on) or `fail()`. */
export interface TurnIO {
  emit(event: LoopEvent): void;
  done(): void;
  fail(error: unknown): void;
}

/**
 * Builds a loop operator that passes every event through and handles each turn with
 * `handle`, which may work asynchronously and must end with `io.done()` or `io.fail()`.
 * The teardown it returns runs only if the run is unsubscribed while the turn is in flight.
 * Upstream completion waits for turns in flight.
 *
 * @example
 * const countTurns = (): LoopOperator => turnOperator((turn, io) => { console.log(turn.step); io.done(); });
 */
export function turnOperator(
  handle: (turn: TurnContext, io: TurnIO) => TeardownLogic,
  onRun?: (run: RunContext, emit: (event: LoopEvent) => void) => TeardownLogic,
): LoopOperator {
  return (source) =>
    new Observable<LoopEvent>((subscriber) => {
      const inflight = new Set<Subscription>();
      let sourceDone = false;
      const emit = (event: LoopEvent) => subscriber.next(event);
      const sourceSub = source.subscribe({
        next(item) {
          if (item.type !== 'turn-context') {
            if (item.type === 'run-context' && onRun) subscriber.add(onRun(item.run, emit));
            subscriber.next(item);
            return;
          }
          const work = new Subscription();
          let settled = false;
          inflight.add(work);
          const settle = () => {
            settled = true;
            inflight.delete(work);
          };
          const io: TurnIO = {
            emit,
            done() {
              if (settled) return;
              settle();
              subscriber.next(item);
              if (sourceDone && inflight.size === 0) subscriber.complete();
            },
            fail(error) {
              if (settled) return;
              settle();
              subscriber.error(error);
            },
          };
          try {
            const teardown = handle(item.turn, io);
            if (!settled) work.add(teardown);
          } catch (error) {
            io.fail(error);
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          sourceDone = true;
          if (inflight.size === 0) subscriber.complete();
        },
      });
      return () => {
        sourceSub.unsubscribe();
        for (const work of inflight) work.unsubscribe();
        inflight.clear();
      };
    });
}
