import { asyncScheduler, defer, Observable, type Subscriber } from 'rxjs';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { repairMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import type { InferOutput, OutputSchema } from '../output/output-schema.js';
import type { AgentEventOf } from '../output/typed-events.js';
import { toUserMessage } from '../turn/message-queue.js';
import type { SteeringQueue } from '../turn/run-facts.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { Turn } from '../turn/turn.js';
import { abortEnding } from './abort-ending.js';
import { resolvePipeline } from './default-pipeline.js';
import { withOutputStage, withStructuredOutput } from './prepare-output.js';
import { RunScope } from './run-scope.js';
import { turnLoop, type PassProgress } from './turn-loop.js';
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
      ? { messages: snapshot.messages, repairs: [] }
      : repairMessageSequence(config.messages ?? [], now);
    const prompt = normalizePrompt(config.prompt, now);
    if (!snapshot && prompt.length === 0 && prior.length === 0) {
      throw new AgentConfigError(
        'runAgent needs a prompt or prior messages: pass { prompt: "…" } or { messages }.',
      );
    }
    const runId = snapshot?.runId ?? config.runId ?? newRunId();
    const pipeline = withOutputStage(outputSpec, resolvePipeline(config));
    const run$ = new Observable<AgentEvent>((subscriber) => {
      // Warnings raised before the run's first event (a source failing as it is attached) wait
      // for `agent-start`; later ones go out as they come.
      let early: AgentEvent[] | undefined = [];
      const scope = new RunScope(
        config,
        scheduler,
        runId,
        snapshot?.priorLength ?? prior.length,
        (event) => (early ? early.push(event) : subscriber.next(event)),
        snapshot?.elapsedMs,
      );
      let first: Turn;
      try {
        const steering: SteeringQueue[] = config.steering$
          ? [{ queue: scope.attach(config.steering$), mode: config.steeringMode ?? 'interrupt' }]
          : [];
        const listening = {
          steering,
          followUps: config.followUp$ ? [scope.attach(config.followUp$)] : [],
          guards: config.guardStop ? [config.guardStop] : [],
        };
        first = snapshot ? resumedTurn(scope, snapshot, listening) : Turn.first(scope, prior, [], listening);
      } catch (error) {
        // Sources attached before the failure must not outlive the run that never started.
        scope.close(true);
        subscriber.error(error);
        return undefined;
      }
      subscriber.next({ type: 'agent-start', runId, messages: prior });
      if (repairs.length > 0) {
        const what = repairs.map((r) => `${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''} at ${r.index}`);
        subscriber.next({ type: 'warning', message: `Repaired the prior transcript: ${what.join(', ')}.` });
      }
      for (const event of early) subscriber.next(event);
      early = undefined;
      let ended = false;
      let pass: PassProgress | undefined;
      const signal = config.signal;
      // Aborted: close the transcript (partial answer, open calls), mark it, end cleanly.
      const endAborted = (): void => {
        ended = true;
        scope.close(true);
        for (const event of abortEnding(pass, first, scheduler.now())) subscriber.next(event);
        subscriber.complete();
      };
      // Registered before the loop runs: a subscriber that leaves synchronously, from inside its
      // `next`, ends what lives with the run at once.
      subscriber.add(() => {
        signal?.removeEventListener('abort', onAbort);
        scope.close(!ended);
      });
      if (subscriber.closed) return undefined;
      if (signal?.aborted) {
        endAborted();
        return undefined;
      }
      const body = chainedObserver<AgentEvent>(subscriber, new RunBody(subscriber, () => (ended = true)));
      function onAbort(): void {
        if (ended || subscriber.closed) return;
        body.unsubscribe();
        endAborted();
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      const maxSteps = config.maxSteps ?? 10;
      // A turn resumed after its step goes on from the decision the step ended with.
      const start = first.assistant ? decide(first, maxSteps, body) : { turn: first, input: prompt };
      if (start) turnLoop(pipeline, start, maxSteps, (p) => (pass = p), config.onSnapshot).subscribe(body);
      return undefined;
    });
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

/** What the run does with its loop's events: passes them on, noting its `agent-end`. */
class RunBody implements ChainHandlers<AgentEvent> {
  constructor(
    private readonly subscriber: Subscriber<AgentEvent>,
    private readonly ended: () => void,
  ) {}

  next(event: AgentEvent): void {
    if (event.type === 'agent-end') this.ended();
    this.subscriber.next(event);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }
}
