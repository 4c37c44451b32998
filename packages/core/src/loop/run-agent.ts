import {
  asyncScheduler,
  concat,
  defer,
  EMPTY,
  expand,
  filter,
  finalize,
  from,
  fromEvent,
  ignoreElements,
  isObservable,
  merge,
  type Observable,
  of,
  queueScheduler,
  Subject,
  subscribeOn,
  take,
  takeUntil,
  tap,
} from 'rxjs';
import { validateRunConfig } from '../config/validate-run-config.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { repairMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import { asTurn } from '../operators/turn-operator.js';
import { stopSignal } from '../stop/stop-signal.js';
import { decideTurn } from './decide-turn.js';
import { resolvePipeline } from './default-pipeline.js';
import { toUserMessage } from './message-queue.js';
import { buildPipeline } from './pipeline-build.js';
import { withOutputStage, withStructuredOutput } from '../output/prepare-output.js';
import type { InferOutput, OutputSchema } from '../output/output-schema.js';
import type { AgentEventOf } from '../output/typed-events.js';
import type { RunAgentConfig } from './run-config.js';
import { markInstrumentable } from './attach-instrument.js';
import { instrumentedRequest } from './instrumented-request.js';
import { RunScope } from './run-scope.js';
import { RunWatch } from './run-watch.js';
import { Turn } from './turn.js';
import type { SteeringQueue } from './run-facts.js';
import type { LoopItem } from './loop-item.js';

/** The run's pipeline, subscribed on one turn's items (its opening events, then the turn). */
type PassPipeline = (items: readonly LoopItem[]) => Observable<LoopItem>;

/** A turn to run next, with the messages that open it (prompt, follow-ups, steering). */
interface NextTurn {
  readonly turn: Turn;
  readonly input: readonly AgentMessage[];
}

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
  const run$ = defer(() => {
    if (!given?.model || typeof given.model.stream !== 'function') {
      throw new AgentConfigError(
        'runAgent needs a model: pass { model } with a ChatModel, e.g. openai("gpt-4o-mini").',
      );
    }
    validateRunConfig(given);
    const config = withStructuredOutput(given);
    const scheduler = config.scheduler ?? asyncScheduler;
    const now = scheduler.now();
    const { messages: prior, repairs } = repairMessageSequence(config.messages ?? [], now);
    const prompt = normalizePrompt(config.prompt, now);
    if (prompt.length === 0 && prior.length === 0) {
      throw new AgentConfigError(
        'runAgent needs a prompt or prior messages: pass { prompt: "…" } or { messages }.',
      );
    }
    const runId = config.runId ?? globalThis.crypto.randomUUID();
    const out = new Subject<AgentEvent>();
    // Warnings raised before the run's body is subscribed (a source failing as it is attached)
    // wait for it instead of going to a Subject nobody listens to yet.
    let early: AgentEvent[] | undefined = [];
    const scope = new RunScope(config, scheduler, runId, prior.length, (event) =>
      early ? early.push(event) : out.next(event),
    );
    // The pipeline is built once per run and subscribed once per turn, on the turn's items.
    let turnItems: readonly LoopItem[] = [];
    let pipeline$: Observable<LoopItem>;
    let first: Turn;
    try {
      const { output$, registrations } = buildPipeline(
        scope,
        withOutputStage(config, resolvePipeline(config)),
        defer(() => from(turnItems)),
      );
      if (!isObservable(output$)) {
        throw new PipelineError('The pipeline function must return an Observable: (turn$) => turn$.pipe(…).');
      }
      pipeline$ = output$ as Observable<LoopItem>;
      const steering: SteeringQueue[] = config.steering$
        ? [{ queue: scope.attach(config.steering$), mode: config.steeringMode ?? 'interrupt' }]
        : [];
      first = Turn.first(scope, prior, [], {
        steering: [...steering, ...registrations.steering],
        followUps: [
          ...(config.followUp$ ? [scope.attach(config.followUp$)] : []),
          ...registrations.followUps,
        ],
        guards: [...(config.guardStop ? [config.guardStop] : []), ...registrations.guards],
      });
    } catch (error) {
      // Sources attached before the failure must not outlive the run that never started.
      scope.close(true);
      throw error;
    }
    const runPass = (items: readonly LoopItem[]) => {
      turnItems = items;
      return pipeline$;
    };
    const watch = new RunWatch();
    const starting: AgentEvent[] = [{ type: 'agent-start', runId, messages: prior }];
    if (repairs.length > 0) {
      const what = repairs.map((r) => `${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''} at ${r.index}`);
      starting.push({ type: 'warning', message: `Repaired the prior transcript: ${what.join(', ')}.` });
    }
    let ended = false;
    let aborted = false;
    const maxSteps = config.maxSteps ?? 10;
    const body$ = merge(out, loop(runPass, { turn: first, input: prompt }, maxSteps, out)).pipe(
      tap((event) => {
        watch.see(event);
        if (event.type === 'agent-end') ended = true;
      }),
    );
    const signal = config.signal;
    const abort$ = signal
      ? defer(() => (signal.aborted ? of(true) : fromEvent(signal, 'abort').pipe(take(1)))).pipe(
          tap(() => (aborted = true)),
        )
      : undefined;
    const run$ = concat(
      defer(() => {
        const raised = early ?? [];
        early = undefined;
        const events = [...starting, ...raised];
        for (const event of events) watch.see(event);
        return from(events);
      }),
      abort$ ? body$.pipe(takeUntil(abort$)) : body$,
      // Aborted: close the transcript (partial answer, open calls), mark it, end cleanly.
      defer(() => {
        if (!aborted || ended) return EMPTY;
        scope.close(true);
        const closing = watch.closingEvents(scope.model.provider, scope.model.modelId, scheduler.now());
        for (const event of closing) watch.see(event);
        const end: AgentEvent = {
          type: 'agent-end',
          reason: 'user-requested',
          signal: stopSignal('user-requested', 'The run was aborted.', { source: 'signal' }),
          messages: watch.appended(),
          usage: watch.usage,
          steps: watch.steps,
        };
        return from([...closing, end]);
      }),
    ).pipe(finalize(() => scope.close(!ended)));
    const instrument = config.instrument;
    if (!instrument?.events) return run$;
    const { provider, modelId } = config.model;
    return instrument.events(run$, {
      runId,
      scheduler,
      provider,
      modelId,
      request: instrumentedRequest(given),
    });
  });
  return markInstrumentable(run$, (instrument) => runAgent({ ...given, instrument }), given?.instrument);
}

/**
 * The turns, one after another: each is a pass of the pipeline; its events go to `out`, and
 * the decision after it gives the next turn or the end. `expand` keeps the stack flat: each
 * pass is subscribed on the queue scheduler, so a synchronous model and tools run 10,000
 * steps without recursion.
 */
function loop(
  pipeline: PassPipeline,
  first: NextTurn,
  maxSteps: number,
  out: Subject<AgentEvent>,
): Observable<never> {
  return of(first).pipe(
    expand((next) => pass(pipeline, next, maxSteps, out).pipe(subscribeOn(queueScheduler))),
    ignoreElements(),
    tap({ complete: () => out.complete() }),
  );
}

/** One turn through the pipeline, then the decision: its events, then the next turn if any. */
function pass(
  pipeline: PassPipeline,
  next: NextTurn,
  maxSteps: number,
  out: Subject<AgentEvent>,
): Observable<NextTurn> {
  return defer(() => {
    const base = next.turn;
    const now = base.run.scheduler.now();
    const steered = base.steering.flatMap((s) => s.queue.drain()).map((m) => toUserMessage(m, now));
    const input = [...next.input, ...steered];
    const turn = base.appended(input);
    const opening: LoopItem[] = [{ type: 'turn-start', step: turn.step }];
    for (const message of input)
      opening.push({ type: 'message-start', message }, { type: 'message-end', message });
    opening.push(turn);
    let result: Turn | undefined;
    // Events go straight to the run's output; only the next turn goes back to `expand`.
    const checked$ = pipeline(opening).pipe(
      filter((item): item is never => {
        const turnOut = asTurn(item, 'The loop');
        if (!turnOut) {
          out.next(item as AgentEvent);
          return false;
        }
        if (result) {
          throw new PipelineError(
            'The pipeline passed the turn on twice: each operator must emit exactly one turn for the one it receives.',
          );
        }
        if (turnOut.run !== turn.run || turnOut.step !== turn.step) {
          throw new PipelineError(
            `The pipeline passed on a turn of another ${turnOut.run !== turn.run ? 'run' : 'step'}: pass on the turn you received (changed with its with… methods).`,
          );
        }
        result = turnOut;
        return false;
      }),
    );
    return concat(
      checked$,
      defer(() => {
        const decision = decideTurn(result, maxSteps);
        for (const event of decision.events) out.next(event);
        if ('next' in decision) return of<NextTurn>({ turn: decision.next, input: decision.input });
        const { last, end } = decision;
        const agentEnd: AgentEndEvent = {
          type: 'agent-end',
          reason: end.reason,
          signal: end,
          messages: last.transcript.sliceFrom(last.run.priorLength),
          usage: last.usage,
          steps: last.steps.length + (last.assistant ? 1 : 0),
        };
        if (last.output !== undefined) agentEnd.output = last.output;
        out.next(agentEnd);
        return EMPTY;
      }),
    );
  });
}

function normalizePrompt(prompt: RunAgentConfig['prompt'], now: number): AgentMessage[] {
  if (prompt === undefined) return [];
  if (typeof prompt === 'string') return [toUserMessage(prompt, now)];
  if (Array.isArray(prompt)) return prompt;
  return [prompt];
}
