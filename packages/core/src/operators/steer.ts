import { from, of, type Observable, type ObservableInput } from 'rxjs';
import { toUserMessage, type MessageQueue, type UserInput } from '../turn/message-queue.js';
import type { Turn } from '../turn/turn.js';
import { sourceFeed } from './source-feed.js';
import type { LoopItem, LoopOperator } from '../turn/loop-item.js';
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
 * Delivers user messages that arrive mid-run. The source is subscribed when the run starts its
 * first turn and stays subscribed until the run ends (the turn carries its queue on); its messages are delivered before the
 * next model call (at this operator when it comes before `llmStep()`, else at the start of
 * the next turn). In `'interrupt'` mode a message arriving while tools run stops the batch
 * early: calls not yet started get `Skipped due to queued user message.`, running
 * `interrupt: 'cancel'` tools are aborted, `'block'` ones finish. A pending message keeps the
 * run going even if the model made no tool call. An error of the source is a `warning`.
 *
 * @param input$ The messages (text or user messages), or a `MessageQueue` that outlives the run.
 * @param options The delivery mode.
 * @return A loop operator.
 *
 * @example
 * const userInput$ = new Subject<string>();
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(steer(userInput$), llmStep(), executeTools()) });
 * userInput$.next('Skip the tests folder.');
 */
export function steer(
  input$: Observable<UserInput> | MessageQueue,
  options: SteerOptions = {},
): LoopOperator {
  const mode = options.mode ?? 'interrupt';
  return (source) => {
    // Per run: the pipeline is built once for each run.
    const feed = sourceFeed(input$);
    return feed.around(turnOperator('steer', (turn) => deliver(turn, feed.queue(turn.run), mode)))(source);
  };
}

function deliver(
  turn: Turn,
  queue: MessageQueue,
  mode: 'interrupt' | 'after-turn',
): ObservableInput<LoopItem> {
  const steered = turn.withSteering(queue, mode);
  // Before the model call, what is queued goes into this turn; after it, into the next one.
  if (turn.assistant || queue.size === 0) return of(steered);
  const now = turn.run.scheduler.now();
  const messages = queue.drain().map((m) => toUserMessage(m, now));
  const items: LoopItem[] = messages.flatMap((message): LoopItem[] => [
    { type: 'message-start', message },
    { type: 'message-end', message },
  ]);
  items.push(steered.appended(messages));
  return from(items);
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
  return (source) => {
    const feed = sourceFeed(input$);
    return feed.around(turnOperator('followUp', (turn) => of(turn.withFollowUps(feed.queue(turn.run)))))(
      source,
    );
  };
}
