import { Observable, type Subscription } from 'rxjs';
import type { LoopOperator } from '../turn/loop-item.js';
import { MessageQueue, type UserInput } from '../turn/message-queue.js';
import type { RunFacts } from '../turn/run-facts.js';

/**
 * A message source an operator listens to for one run: subscribed when the run first subscribes
 * the operator (its first turn starts), so messages that arrive before the turn reaches the
 * operator are kept; handed to the run when the turn arrives, so it stays subscribed until the
 * run ends; unsubscribed if the run ends before that. A failing source is a `warning`.
 *
 * @example
 * const feed = sourceFeed(input$);
 * const queue = feed.queue(turn.run);
 */
export interface SourceFeed {
  /** Wraps the operator applied for this run so that subscribing it starts the feed. */
  around(operator: LoopOperator): LoopOperator;
  /** The queue the source feeds (the run keeps the subscription from now on). */
  queue(run: RunFacts): MessageQueue;
}

/**
 * The feed of `input$` for one run (see `SourceFeed`); a `MessageQueue` is used as it is.
 *
 * @example
 * return (source) => { const feed = sourceFeed(input$); return feed.around(turnOperator('steer', (t) => …))(source); };
 */
export function sourceFeed(input$: Observable<UserInput> | MessageQueue): SourceFeed {
  if (input$ instanceof MessageQueue) return { around: (operator) => operator, queue: () => input$ };
  let queue: MessageQueue | undefined;
  let subscription: Subscription | undefined;
  let owner: RunFacts | undefined;
  let failure: string | undefined;
  const start = (subscriber: Subscription): void => {
    if (queue) return;
    const fed = (queue = new MessageQueue());
    subscription = input$.subscribe({
      next: (message) => fed.push(message),
      error: (error: unknown) => {
        const text = `A message source of the run failed and was detached: ${error instanceof Error ? error.message : String(error)}`;
        if (owner) owner.warn(text);
        else failure = text;
      },
    });
    // The run ended before its turn reached the operator: nobody owns the subscription.
    subscriber.add(() => {
      if (!owner) subscription?.unsubscribe();
    });
  };
  return {
    around: (operator) => (source) => {
      const inner$ = operator(source);
      return new Observable((subscriber) => {
        start(subscriber);
        return inner$.subscribe(subscriber);
      });
    },
    queue: (run) => {
      if (!queue || !subscription) return run.attach(input$);
      if (owner) return run.attach(input$);
      owner = run;
      const kept = run.attach(input$, { queue, subscription });
      if (failure && kept === queue) run.warn(failure);
      return kept;
    },
  };
}
