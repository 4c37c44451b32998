import type { Observable } from 'rxjs';
import { MessageQueue, type UserInput } from '../loop/message-queue.js';
import type { LoopOperator, RunContext } from '../loop/loop-event.js';
import { turnOperator } from './turn-operator.js';

/**
 * Options of `steer`.
 *
 * @example
 * steer(userInput$, { mode: 'after-turn' });
 */
export interface SteerOptions {
  /** `'interrupt'` (default): after the running tool, calls not started are skipped and
   * `interrupt: 'cancel'` tools aborted. `'after-turn'`: delivered after the whole batch. */
  mode?: 'interrupt' | 'after-turn';
}

/**
 * Delivers user messages that arrive mid-run. They are queued and delivered at the start of
 * the next turn (messages queued before the first model call are delivered before it); in
 * `'interrupt'` mode a message arriving while tools run stops the batch early: calls not yet
 * started get `Skipped due to queued user message.`, running `interrupt: 'cancel'` tools are
 * aborted, `'block'` ones finish. A pending message keeps the run going even if the model
 * made no tool call.
 *
 * @param input$ The messages (text or user messages), or a `MessageQueue` that outlives the run.
 * @param options The delivery mode.
 * @return A loop operator.
 *
 * @example
 * const userInput$ = new Subject<string>();
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), steer(userInput$)) });
 * userInput$.next('Skip the tests folder.');
 */
export function steer(
  input$: Observable<UserInput> | MessageQueue,
  options: SteerOptions = {},
): LoopOperator {
  return turnOperator(
    (_turn, io) => io.done(),
    (run) => attachQueue(input$, (queue) => run.steering.push({ queue, mode: options.mode ?? 'interrupt' })),
  );
}

/**
 * Delivers messages only when the run would otherwise stop (the model answered without tool
 * calls and nothing is queued), each batch starting another turn.
 *
 * @param input$ The messages, or a `MessageQueue` that outlives the run.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools(), followUp(of('Now summarize.'))) });
 */
export function followUp(input$: Observable<UserInput> | MessageQueue): LoopOperator {
  return turnOperator(
    (_turn, io) => io.done(),
    (run) => attachQueue(input$, (queue) => run.followUps.push(queue)),
  );
}

/**
 * Registers a message source on a run: a queue as it is, an Observable through a new queue
 * it feeds until the run ends. Returns the teardown.
 */
export function attachQueue(
  input$: Observable<UserInput> | MessageQueue,
  register: (queue: MessageQueue) => void,
): (() => void) | undefined {
  if (input$ instanceof MessageQueue) {
    register(input$);
    return undefined;
  }
  const queue = new MessageQueue();
  register(queue);
  const sub = input$.subscribe({ next: (m) => queue.push(m), error: () => undefined });
  return () => sub.unsubscribe();
}

/** @internal Registers a run's config-level sources (used by runAgent for every pipeline). */
export function attachConfigSources(run: RunContext): () => void {
  const teardowns: ((() => void) | undefined)[] = [];
  const { steering$, followUp$, guardStop, steeringMode } = run.config;
  if (steering$)
    teardowns.push(
      attachQueue(steering$, (queue) => run.steering.push({ queue, mode: steeringMode ?? 'interrupt' })),
    );
  if (followUp$) teardowns.push(attachQueue(followUp$, (queue) => run.followUps.push(queue)));
  if (guardStop) run.stopGuards.push(guardStop);
  return () => teardowns.forEach((t) => t?.());
}
