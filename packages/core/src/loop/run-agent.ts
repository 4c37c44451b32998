import {
  asyncScheduler,
  defer,
  Observable,
  type SchedulerLike,
  type Subscriber,
  type Subscription,
  type TeardownLogic,
} from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { repairMessageSequence, type MessageSequenceIssue } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import type { InferOutput, OutputSchema } from '../output/output-schema.js';
import type { AgentEventOf } from '../output/typed-events.js';
import { toUserMessage } from '../turn/message-queue.js';
import type { SteeringQueue } from '../turn/run-facts.js';
import type { Pipeline, RunAgentConfig } from '../turn/run-config.js';
import { Turn } from '../turn/turn.js';
import { abortEnding } from './abort-ending.js';
import { resolvePipeline } from './default-pipeline.js';
import { withOutputStage, withStructuredOutput } from './prepare-output.js';
import { RunScope, type RunReporter } from './run-scope.js';
import { turnLoop, type PassProgress, type PassWatcher } from './turn-loop.js';
import { decide, resumedTurn } from './resumed-turn.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';
import { validateRunConfig } from './validate-run-config.js';
import { markInstrumentable } from './attach-instrument.js';
import { withInstrumentHooks } from './instrument-hooks.js';
import { instrumentedRequest } from '../turn/instrumented-request.js';
import { chainedObserver, type ChainHandlers } from '../util/chained-observer.js';

/**
 * Runs the agent loop: the model is called, the tools it asks for run, their results go back,
 * until something stops it. The run is a cold Observable: nothing happens before subscribe,
 * each subscription is an independent run, and unsubscribing cancels the model stream and
 * aborts the running tools. It ends with `agent-end` then complete, or errors with a typed
 * error (auth, retries exhausted, an escalating stop guard, a `PipelineError`).
 *
 * Each turn goes through the pipeline (`config.pipeline`, or `defaultPipeline(config)`)
 * applied to a one-turn source: the turn's opening events, then the `Turn`.
 *
 * @param config The model, prompt, tools and options.
 * @return The run's events.
 *
 * @example
 * runAgent({ model: openai('gpt-4o-mini'), tools: [weather], prompt: 'Weather in Paris?', stopWhen: stepCountIs(4) })
 *   .subscribe((e) => e.type === 'message-update' && process.stdout.write(e.delta.text));
 */
export function runAgent<S extends OutputSchema>(
  config: RunAgentConfig & { output: S },
): Observable<AgentEventOf<InferOutput<S>>>;
export function runAgent(config: RunAgentConfig): Observable<AgentEvent>;
export function runAgent(given: RunAgentConfig): Observable<AgentEvent> {
  // An instrument applied as an operator right after the run becomes the run's own (`traceRun()`).
  return markInstrumentable(
    startRun(given),
    (instrument) => runAgent({ ...given, instrument }),
    given?.instrument,
  );
}

/**
 * A run from its config, fresh or (with `snapshot`) resumed from a turn a snapshot was taken of.
 * @internal `runAgent` and `resumeRun` are the two ways in.
 */
export function startRun(given: RunAgentConfig, snapshot?: RunSnapshot): Observable<AgentEvent> {
  return defer(() => {
    if (!given?.model || typeof given.model.stream !== 'function') {
      throw new AgentConfigError(
        'runAgent needs a model: pass { model } with a ChatModel, e.g. openai("gpt-4o-mini").',
      );
    }
    validateRunConfig(given);
    const { config, outputSpec } = withStructuredOutput(withInstrumentHooks(given));
    const scheduler = config.scheduler ?? asyncScheduler;
    const now = scheduler.now();
    const { messages: prior, repairs } = snapshot
      ? { messages: snapshot.messages, repairs: NONE }
      : config.messages?.length
        ? repairMessageSequence(config.messages, now)
        : { messages: NONE, repairs: NONE };
    const prompt = normalizePrompt(config.prompt, now);
    if (!snapshot && prompt.length === 0 && prior.length === 0) {
      throw new AgentConfigError(
        'runAgent needs a prompt or prior messages: pass { prompt: "…" } or { messages }.',
      );
    }
    const runId = snapshot?.runId ?? config.runId ?? newRunId();
    const pipeline = withOutputStage(outputSpec, resolvePipeline(config));
    const plan: RunPlan = { config, scheduler, runId, prior, repairs, prompt, pipeline, snapshot };
    const run$ = new Observable<AgentEvent>((subscriber) => new LiveRun(subscriber, plan).start());
    const instrument = config.instrument;
    if (!instrument?.events) return run$;
    const { provider, modelId } = config.model;
    return instrument.events(run$, {
      runId,
      scheduler,
      provider,
      modelId,
      secrets: config.model.secrets,
      request: instrumentedRequest(given),
    });
  });
}

function normalizePrompt(prompt: RunAgentConfig['prompt'], now: number): AgentMessage[] {
  if (prompt === undefined) return [];
  if (typeof prompt === 'string') return [toUserMessage(prompt, now)];
  if (Array.isArray(prompt)) return prompt;
  return [prompt];
}

/**
 * A fresh run id. (Node builds a UUID by concatenation, a tree of 14 string pieces that a run
 * would keep for its whole life: sliced once, it is one flat string — 0.5 KB less per run.)
 */
function newRunId(): string {
  return ` ${globalThis.crypto.randomUUID()}`.slice(1);
}

// A run with no prior messages shares these (a pending run keeps what it started from).
const NONE: readonly never[] = Object.freeze([]);

/** What a run's subscription starts from (worked out once per `runAgent` call). */
interface RunPlan {
  readonly config: RunAgentConfig;
  readonly scheduler: SchedulerLike;
  readonly runId: string;
  readonly prior: readonly AgentMessage[];
  readonly repairs: readonly MessageSequenceIssue[];
  readonly prompt: readonly AgentMessage[];
  readonly pipeline: Pipeline;
  readonly snapshot?: RunSnapshot;
}

/**
 * One subscription of a run: its scope, first turn and loop, as one object rather than the
 * closures of a subscribe function (a pending run holds it for its whole life: the bench's
 * heap-per-run rows). It is the abort signal's listener (`handleEvent`), the run's teardown
 * (`unsubscribe`) and what passes the loop's events on (`next`/`error`/`complete`).
 */
class LiveRun implements ChainHandlers<AgentEvent>, PassWatcher, RunReporter {
  /** Warnings raised before the run's first event (a source failing as it is attached) wait for `agent-start`. */
  private early: AgentEvent[] | undefined = [];
  private ended = false;
  private pass: PassProgress | undefined;
  private scope!: RunScope;
  private first!: Turn;
  private body?: Subscription;

  constructor(
    private readonly subscriber: Subscriber<AgentEvent>,
    private readonly plan: RunPlan,
  ) {}

  start(): TeardownLogic {
    const { subscriber, plan } = this;
    const { config, snapshot, prior, runId } = plan;
    this.scope = new RunScope(
      config,
      plan.scheduler,
      runId,
      snapshot?.priorLength ?? prior.length,
      this,
      snapshot?.elapsedMs,
    );
    try {
      this.first = firstTurn(this.scope, plan);
    } catch (error) {
      // Sources attached before the failure must not outlive the run that never started.
      this.scope.close(true);
      subscriber.error(error);
      return undefined;
    }
    subscriber.next({ type: 'agent-start', runId, messages: prior });
    if (plan.repairs.length > 0) {
      const what = plan.repairs.map(
        (r) => `${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''} at ${r.index}`,
      );
      subscriber.next({ type: 'warning', message: `Repaired the prior transcript: ${what.join(', ')}.` });
    }
    for (const event of this.early ?? []) subscriber.next(event);
    this.early = undefined;
    // Registered before the loop runs: a subscriber that leaves synchronously, from inside its
    // `next`, ends what lives with the run at once.
    subscriber.add(this);
    if (subscriber.closed) return undefined;
    const signal = config.signal;
    if (signal?.aborted) {
      this.endAborted();
      return undefined;
    }
    const body = chainedObserver<AgentEvent>(subscriber, this);
    this.body = body;
    signal?.addEventListener('abort', this, { once: true });
    const maxSteps = config.maxSteps ?? 10;
    const first = this.first;
    // A turn resumed after its step goes on from the decision the step ended with.
    const start = first.assistant ? decide(first, maxSteps, body) : { turn: first, input: plan.prompt };
    if (start) turnLoop(plan.pipeline, start, maxSteps, this, config.onSnapshot).subscribe(body);
    return undefined;
  }

  /** Where the loop's pass is (for closing the transcript on an abort). */
  progress(pass: PassProgress): void {
    this.pass = pass;
  }

  /** The abort signal fired. */
  handleEvent(): void {
    if (this.ended || this.subscriber.closed) return;
    this.body?.unsubscribe();
    this.endAborted();
  }

  /** The run's teardown: the listener goes, and what lives with the run ends. */
  unsubscribe(): void {
    this.plan.config.signal?.removeEventListener('abort', this);
    this.scope.close(!this.ended);
  }

  next(event: AgentEvent): void {
    if (event.type === 'agent-end') this.ended = true;
    this.subscriber.next(event);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }

  /** Warnings raised outside the loop (a message source failing). */
  report(event: AgentEvent): void {
    if (this.early) this.early.push(event);
    else this.subscriber.next(event);
  }

  // Aborted: close the transcript (partial answer, open calls), mark it, end cleanly.
  private endAborted(): void {
    this.ended = true;
    this.scope.close(true);
    const now = this.plan.scheduler.now();
    for (const event of abortEnding(this.pass, this.first, now)) this.subscriber.next(event);
    this.subscriber.complete();
  }
}

/** The run's first turn: the snapshot's, or a fresh one, listening to the config's sources. */
function firstTurn(scope: RunScope, plan: RunPlan): Turn {
  const { config, snapshot, prior } = plan;
  const steering: SteeringQueue[] = config.steering$
    ? [{ queue: scope.attach(config.steering$), mode: config.steeringMode ?? 'interrupt' }]
    : [];
  const listening = {
    steering,
    followUps: config.followUp$ ? [scope.attach(config.followUp$)] : [],
    guards: config.guardStop ? [config.guardStop] : [],
  };
  return snapshot ? resumedTurn(scope, snapshot, listening) : Turn.first(scope, prior, [], listening);
}
