// The driver of the Rx-law suite: runs a scenario in virtual time (inside `TestScheduler.run`,
// so the default schedulers are virtual too) or in real time, records what the model and the
// tools saw, snapshots the counters when the run is torn down, and reports leftovers.
// Not a suite itself (jest runs `*.spec.ts`); named `*.test.ts` so the build leaves it out.
import type fc from 'fast-check';
import { asyncScheduler, finalize, tap, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import type { AgentEvent } from '../events/agent-event.js';
import type { Pipeline, RunAgentConfig } from '../turn/run-config.js';
import { runAgent } from '../loop/run-agent.js';
import { validateMessageSequence, type MessageSequenceIssue } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import type { AgentState } from '../state/agent-state.js';
import { withState } from '../state/with-state.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import {
  lawModel,
  lawTools,
  timeless,
  type LawModel,
  type LawTools,
  type Scenario,
  type StreamShape,
} from './law-fixtures.test.js';

// ---------------------------------------------------------------------------------------------
// Short and long form

/** The long form (`RXAGENT_FAULTS=full`, as `pnpm test:faults` sets it). */
export const FULL_LAWS = process.env.RXAGENT_FAULTS === 'full';

/**
 * fast-check parameters: `short` runs by default, `full` in the long form. The short form uses
 * a fixed seed (so `pnpm test` is deterministic), the long form a fresh one; set
 * `RXAGENT_LAWS_SEED` to replay a reported failure.
 */
export function lawParams<T>(short: number, full: number): fc.Parameters<T> {
  const fromEnv = Number(process.env.RXAGENT_LAWS_SEED);
  const seed =
    Number.isInteger(fromEnv) && process.env.RXAGENT_LAWS_SEED
      ? fromEnv
      : FULL_LAWS
        ? Date.now() % 2 ** 31
        : 20240611;
  return { numRuns: FULL_LAWS ? full : short, seed };
}

/** Jest timeout of a property. */
export function lawTimeout(shortMs: number, fullMs: number): number {
  return FULL_LAWS ? fullMs : shortMs;
}

// ---------------------------------------------------------------------------------------------
// Running a scenario

/** What the run had done at one moment. */
export interface Snapshot {
  streamCalls: number;
  subscriptions: number;
  teardowns: number;
  /**
   * Model streams subscribed and not torn down, leaving out those still inside their own
   * synchronous subscribe (RxJS runs their teardown as soon as it returns).
   */
  liveStreams: number;
  toolStarts: number;
  /** Started tool executions that had not finished and whose signal was not aborted. */
  openNotAborted: string[];
}

export interface Outcome {
  scenario: Scenario;
  /** The events the final subscriber received. */
  events: AgentEvent[];
  /** `pending`: neither complete nor error when everything had settled (a hang). */
  end: 'pending' | 'complete' | 'error';
  error?: unknown;
  model: LawModel;
  tools: LawTools;
  /** When the run itself was torn down (complete, error or unsubscribe); undefined if never. */
  atTeardown?: Snapshot;
  /** After everything settled. */
  final: Snapshot;
  /** Virtual time: the run's timers still scheduled right after its teardown. */
  timersLeft?: number;
  /** Model calls made when `agent-end` went out (undefined without one). */
  callsAtAgentEnd?: number;
  /** The final state (`withState`): its transcript is closed whatever ended the run. */
  state: AgentState;
}

export interface RunOptions {
  /** The run's pipeline (default: the default pipeline, with `stopWhen` from the config). */
  pipeline?: Pipeline;
  /** How each model call's stream is built (cycled). */
  shapes?: readonly StreamShape[];
  /** What the subscriber does to the run's events (`take(3)`, …). */
  cut?: (events$: Observable<AgentEvent>) => Observable<AgentEvent>;
  /** Unsubscribes from outside at this virtual time (virtual mode) or after this many ms (real mode). */
  unsubscribeAt?: number;
  /** Aborts the run through `config.signal` at this virtual time (virtual mode) or after this many ms (real mode). */
  abortAt?: number;
  /** Extra config. */
  config?: Partial<RunAgentConfig>;
  /** Real time: how long to wait for the run to end before calling it a hang. */
  hangMs?: number;
}

function snapshot(model: LawModel, tools: LawTools): Snapshot {
  const { streamCalls, subscriptions, teardowns, subscribing } = model.counts;
  return {
    streamCalls,
    subscriptions,
    teardowns,
    liveStreams: subscriptions - teardowns - subscribing,
    toolStarts: tools.executions.length,
    openNotAborted: tools.executions.filter((e) => !e.finished && !e.signal.aborted).map((e) => e.id),
  };
}

interface Started {
  outcome: Outcome;
  subscription: Subscription;
  tornDown(): boolean;
}

function start(
  scenario: Scenario,
  options: RunOptions,
  scheduler: SchedulerLike,
  virtual: TestScheduler | undefined,
): Started {
  const owned = new Set<Subscription>();
  const model = lawModel(
    scenario,
    { timing: scenario.modelTiming, latencyMs: scenario.latencyMs, scheduler, owned },
    options.shapes,
  );
  const tools = lawTools(scenario);
  const abort = options.abortAt === undefined ? undefined : new AbortController();
  const config: RunAgentConfig = {
    model,
    tools: tools.tools,
    prompt: 'go',
    runId: 'law-run',
    scheduler,
    toolConcurrency: scenario.concurrency,
    maxRetries: 2,
    retryBackoff: { initialDelayMs: 5, jitter: 0 },
    ...(options.pipeline ? { pipeline: options.pipeline } : { stopWhen: stepCountIs(scenario.stopAfter) }),
    ...(abort ? { signal: abort.signal } : {}),
    ...options.config,
  };
  const { events$, state$ } = withState(
    runAgent(config).pipe(
      tap((e) => {
        if (e.type === 'agent-end') outcome.callsAtAgentEnd = model.counts.streamCalls;
      }),
      finalize(() => {
        outcome.atTeardown = snapshot(model, tools);
        if (virtual) {
          // Right after the action that tore the run down: what the run still has scheduled.
          owned.add(
            virtual.schedule(() => {
              outcome.timersLeft = virtual.actions.filter((a) => !owned.has(a)).length;
            }, 0),
          );
        }
      }),
    ),
  );
  const outcome: Outcome = {
    scenario,
    events: [],
    end: 'pending',
    model,
    tools,
    final: snapshot(model, tools),
    state: state$.value,
  };
  const observed$ = options.cut ? options.cut(events$) : events$;
  const subscription = observed$.subscribe({
    next: (e) => outcome.events.push(e),
    error: (error: unknown) => {
      outcome.end = 'error';
      outcome.error = error;
    },
    complete: () => (outcome.end = 'complete'),
  });
  if (abort && options.abortAt !== undefined) {
    if (virtual) owned.add(virtual.schedule(() => abort.abort(), options.abortAt));
    else setTimeout(() => abort.abort(), options.abortAt);
  }
  if (options.unsubscribeAt !== undefined) {
    if (virtual) owned.add(virtual.schedule(() => subscription.unsubscribe(), options.unsubscribeAt));
    else setTimeout(() => subscription.unsubscribe(), options.unsubscribeAt);
  }
  const finish = () => {
    outcome.final = snapshot(model, tools);
    outcome.state = state$.value;
  };
  return {
    outcome,
    subscription,
    tornDown: () => {
      finish();
      return outcome.atTeardown !== undefined;
    },
  };
}

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs a scenario to its end (or its cut) and lets everything settle. Virtual mode: inside
 * `TestScheduler.run`, flushed to the end. Real mode: waits for the teardown (at most
 * `hangMs`), then a few more ms for anything that would still start.
 */
export async function runScenario(scenario: Scenario, options: RunOptions = {}): Promise<Outcome> {
  if (scenario.mode === 'virtual') {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    let started: Started | undefined;
    scheduler.run(({ flush }) => {
      started = start(scenario, options, scheduler, scheduler);
      flush();
    });
    const s = started as Started;
    s.tornDown();
    s.subscription.unsubscribe();
    return s.outcome;
  }
  const s = start(scenario, options, asyncScheduler, undefined);
  const deadline = Date.now() + (options.hangMs ?? 3_000);
  while (!s.tornDown() && Date.now() < deadline) {
    await macrotask();
    if (!s.tornDown()) await sleep(1);
  }
  // Anything that would still start after the teardown has time to show up.
  for (let i = 0; i < 5; i++) await macrotask();
  await sleep(5);
  s.tornDown();
  s.subscription.unsubscribe();
  return s.outcome;
}

// ---------------------------------------------------------------------------------------------
// Reading an outcome

/** The events as plain JSON, times left out. */
export function publicEvents(
  events: readonly AgentEvent[],
  ignore: ReadonlySet<string> = new Set(),
): string[] {
  return events.filter((e) => !ignore.has(e.type)).map(timeless);
}

/** The run's transcript: the prior one plus what `agent-end` says the run appended. */
export function endTranscript(events: readonly AgentEvent[]): AgentMessage[] | undefined {
  const start = events.find((e) => e.type === 'agent-start');
  const end = events.find((e) => e.type === 'agent-end');
  if (!end || end.type !== 'agent-end') return undefined;
  const prior = start?.type === 'agent-start' ? (start.messages ?? []) : [];
  return [...prior, ...end.messages];
}

/** Law 5: every transcript of the outcome (the state's, and `agent-end`'s when there is one) is valid. */
export function transcriptIssues(outcome: Outcome): {
  state: MessageSequenceIssue[];
  agentEnd: MessageSequenceIssue[];
} {
  const fromEnd = endTranscript(outcome.events);
  return {
    state: validateMessageSequence(outcome.state.messages),
    agentEnd: fromEnd ? validateMessageSequence(fromEnd) : [],
  };
}

/** A short description of an outcome for failure messages. */
export function describeOutcome(outcome: Outcome): string {
  const error =
    outcome.error instanceof Error
      ? `${outcome.error.name}: ${outcome.error.message}`
      : String(outcome.error);
  return JSON.stringify({
    end: outcome.end,
    error: outcome.end === 'error' ? error : undefined,
    events: outcome.events.map((e) => e.type),
    atTeardown: outcome.atTeardown,
    final: outcome.final,
    timersLeft: outcome.timersLeft,
  });
}
