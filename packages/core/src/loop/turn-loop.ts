import { Observable, type Subscriber } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import { asTurn } from '../operators/turn-operator.js';
import type { LoopItem } from '../turn/loop-item.js';
import { toUserMessage } from '../turn/message-queue.js';
import type { Pipeline } from '../turn/run-config.js';
import type { Turn } from '../turn/turn.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';
import { decideTurn } from './decide-turn.js';

/**
 * A turn to run next, with the messages that open it (prompt, follow-ups, steering).
 *
 * @example
 * const next: NextTurn = { turn: first, input: [userMessage('hi')] };
 */
export interface NextTurn {
  readonly turn: Turn;
  readonly input: readonly AgentMessage[];
}

/**
 * Where a pass is: the turn that entered the pipeline and the events it emitted so far that
 * matter for closing the transcript (everything but deltas; the last delta is kept alone).
 */
export interface PassProgress {
  readonly turn: Turn;
  readonly events: readonly AgentEvent[];
}

/**
 * Told where each pass of a run is (for closing the transcript on an abort).
 *
 * @example
 * const watcher: PassWatcher = { progress: (pass) => (latest = pass) };
 */
export interface PassWatcher {
  progress(pass: PassProgress): void;
}

/**
 * The turns of a run, one after another: each turn's opening events and the turn go through
 * the pipeline (built once for the run, subscribed once per turn); its events go to `emit`; the
 * decision after it gives the next turn or the run's `agent-end`, which completes the stream.
 * Passes that end synchronously are run in a loop, not nested, so a synchronous model and tools
 * run 10,000 steps without deepening the stack. Unsubscribing tears the running pass down.
 *
 * (Hand-written rather than `expand` + `subscribeOn(queueScheduler)` + `concat`: the pass is the
 * per-step hot path; this costs one subscription a turn instead of about ten. Measured by the
 * `tool-loop` and `subscriptions` rows of `pnpm bench`.)
 *
 * @param pipeline The run's pipeline.
 * @param first The first turn.
 * @param maxSteps The step limit.
 * @param watcher Told where each pass is (for closing the transcript on an abort).
 * @return The run's events from the first `turn-start` to `agent-end`.
 *
 * @example
 * turnLoop(defaultPipeline(config), { turn: first, input: prompt }, 10, { progress: () => undefined }).subscribe(console.log);
 */
export function turnLoop(
  pipeline: Pipeline,
  first: NextTurn,
  maxSteps: number,
  watcher: PassWatcher,
  onSnapshot?: (snapshot: RunSnapshot) => void,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const loop = new LoopRun(subscriber, maxSteps, watcher, onSnapshot);
    // The pipeline's source: one pass's opening events, then its turn.
    const source = new Observable<LoopItem>((s) => {
      for (const item of loop.items) {
        if (s.closed) return;
        s.next(item);
      }
      s.complete();
    });
    const output$ = pipeline(source) as unknown;
    if (!(output$ instanceof Observable) && !isObservableLike(output$)) {
      throw new PipelineError('The pipeline function must return an Observable: (turn$) => turn$.pipe(…).');
    }
    loop.pass$ = output$ as Observable<LoopItem>;
    loop.pending = first;
    loop.drive();
  });
}

// The loop and each pass as objects rather than closures: a pending run holds them for its whole
// life (the bench's heap-per-run rows).

/** One run's loop: the passes, one after another. */
class LoopRun {
  items: readonly LoopItem[] = [];
  pass$?: Observable<LoopItem>;
  pending?: NextTurn;
  private looping = false;

  constructor(
    readonly subscriber: Subscriber<AgentEvent>,
    readonly maxSteps: number,
    readonly watcher: PassWatcher,
    readonly onSnapshot?: (snapshot: RunSnapshot) => void,
  ) {}

  drive(): void {
    if (this.looping) return; // a pass ended inside `run`: the loop below takes the next one
    this.looping = true;
    while (this.pending !== undefined && !this.subscriber.closed) {
      const next: NextTurn = this.pending;
      this.pending = undefined;
      this.run(next);
    }
    this.looping = false;
  }

  private run(next: NextTurn): void {
    const base = next.turn;
    let input = next.input;
    for (const s of base.steering) {
      if (s.queue.size === 0) continue;
      const now = base.run.scheduler.now();
      input = [...input, ...s.queue.drain().map((m) => toUserMessage(m, now))];
    }
    const turn = input.length > 0 ? base.appended(input) : base;
    // Made to size: a pending run keeps its pass's opening items.
    const opening = new Array<LoopItem>(2 + 2 * input.length);
    let at = 0;
    opening[at++] = { type: 'turn-start', step: turn.step };
    for (const message of input) {
      opening[at++] = { type: 'message-start', message };
      opening[at++] = { type: 'message-end', message };
    }
    opening[at] = turn;
    this.items = opening;
    // The turn before its opening messages: they are among the events the pass emits.
    const pass = new Pass(this, base);
    this.watcher.progress(pass);
    (this.pass$ as Observable<LoopItem>).subscribe(chainedObserver<LoopItem>(this.subscriber, pass));
  }
}

/**
 * One turn through the pipeline, then the decision after it; it is also where the pass is (the
 * turn that entered it, before its opening messages, and the events it emitted).
 */
class Pass implements ChainHandlers<LoopItem>, PassProgress {
  /** The events that matter for closing the transcript (the last delta alone). */
  readonly events: AgentEvent[] = [];
  private result?: Turn;

  constructor(
    private readonly loop: LoopRun,
    readonly turn: Turn,
  ) {}

  next(item: LoopItem): void {
    const subscriber = this.loop.subscriber;
    let out: Turn | undefined;
    try {
      out = asTurn(item, 'The loop');
      if (out) checkOut(out, this.result, this.turn);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    if (out) {
      this.result = out;
      return;
    }
    const event = item as AgentEvent;
    const seen = this.events;
    if (
      event.type === 'message-update' &&
      seen.length > 0 &&
      seen[seen.length - 1]?.type === 'message-update'
    )
      seen[seen.length - 1] = event;
    else seen.push(event);
    subscriber.next(event);
  }

  error(error: unknown): void {
    this.loop.subscriber.error(error);
  }

  complete(): void {
    const { loop, result } = this;
    const subscriber = loop.subscriber;
    // Calls of eager tools that no executeTools() adopted end with the pass.
    result?.eager?.abandon();
    let decision;
    try {
      if (loop.onSnapshot && result) loop.onSnapshot(result.snapshot());
      decision = decideTurn(result, loop.maxSteps);
    } catch (error) {
      subscriber.error(error);
      return;
    }
    for (const event of decision.events) {
      this.events.push(event);
      subscriber.next(event);
    }
    if ('next' in decision) {
      loop.pending = { turn: decision.next, input: decision.input };
      loop.drive();
      return;
    }
    subscriber.next(agentEnd(decision.last, decision.end));
    subscriber.complete();
  }
}

function isObservableLike(value: unknown): boolean {
  return typeof (value as { subscribe?: unknown } | null)?.subscribe === 'function';
}

function checkOut(out: Turn, result: Turn | undefined, turn: Turn): void {
  if (result) {
    throw new PipelineError(
      'The pipeline passed the turn on twice: each operator must emit exactly one turn for the one it receives.',
    );
  }
  if (out.run !== turn.run || out.step !== turn.step) {
    throw new PipelineError(
      `The pipeline passed on a turn of another ${out.run !== turn.run ? 'run' : 'step'}: pass on the turn you received (changed with its with… methods).`,
    );
  }
}

/** @internal The `agent-end` of a run that stopped after `last`. */
export function agentEnd(last: Turn, end: AgentEndEvent['signal']): AgentEndEvent {
  const event: AgentEndEvent = {
    type: 'agent-end',
    reason: end.reason,
    signal: end,
    messages: last.log.sliceFrom(last.run.priorLength),
    usage: last.usage,
    steps: last.steps.length + (last.assistant ? 1 : 0),
  };
  if (last.output !== undefined) event.output = last.output;
  return event;
}
