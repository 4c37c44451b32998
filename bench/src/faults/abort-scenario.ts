import { VirtualTimeScheduler, type Subscription } from 'rxjs';
import fc from 'fast-check';
import { runAgent, withState, type AgentState } from '@rxagent/core';
import { validateMessageSequence, type MessageSequenceIssue } from '@rxagent/core/provider';
import type { AgentEndEvent } from '@rxagent/core/events';
import { faultModel, type FailKind, type TurnScript } from './fault-model.js';
import { FAULT_TOOL_NAMES, faultTools } from './fault-tools.js';
import { driveVirtualTime } from './virtual-time.js';

/** One random run: what the model does, how slow everything is, and when it is stopped. */
export interface AbortScenario {
  turns: TurnScript[];
  modelLatencyMs: number;
  toolLatencyMs: number;
  approvalMs: number;
  approve: boolean;
  toolConcurrency: number;
  stop: 'abort' | 'unsubscribe';
  /** When to stop, in ten-thousandths of the run's natural duration. */
  at: number;
}

const FAIL_KINDS: FailKind[] = [
  'rate-limit',
  'rate-limit-retry-after',
  'overloaded',
  'server',
  'network',
  'partial',
];

/**
 * Random scenarios: up to 5 tool or failing turns, then a final text.
 *
 * @example
 * fc.assert(fc.asyncProperty(abortScenarioArb, async (s) => { await playAbortScenario(s); }));
 */
export const abortScenarioArb: fc.Arbitrary<AbortScenario> = fc.record({
  turns: fc.array(
    fc.oneof(
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('tools' as const),
          calls: fc.array(fc.constantFrom(...FAULT_TOOL_NAMES), { minLength: 1, maxLength: 3 }),
          text: fc.boolean(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('fail' as const),
          error: fc.constantFrom(...FAIL_KINDS),
          deltas: fc.integer({ min: 0, max: 3 }),
        }),
      },
    ),
    { maxLength: 5 },
  ),
  modelLatencyMs: fc.integer({ min: 0, max: 8 }),
  toolLatencyMs: fc.integer({ min: 0, max: 30 }),
  approvalMs: fc.integer({ min: 0, max: 20 }),
  approve: fc.boolean(),
  toolConcurrency: fc.integer({ min: 1, max: 3 }),
  stop: fc.constantFrom('abort' as const, 'unsubscribe' as const),
  // Unbiased: fast-check otherwise favours the bounds, and most stops would land at 0.
  at: fc.noBias(fc.integer({ min: 0, max: 10_000 })),
});

/** Where the run was when it was stopped. */
export type StopMoment =
  | 'mid-stream'
  | 'mid-tool'
  | 'during-approval'
  | 'during-backoff'
  | 'awaiting-model'
  | 'between'
  | 'after-end';

/** What one scenario run left behind. */
export interface AbortOutcome {
  /** Virtual ms from subscribe to the end (or the unsubscribe). */
  endedAt: number;
  ended: boolean;
  error?: unknown;
  agentEnd?: AgentEndEvent;
  state: AgentState;
  /** Where the run was when stopped (`after-end` when it had ended before). */
  moment: StopMoment;
  /** What was still open right after the end: model streams, tool executions, approvals, timers. */
  leftOpen: { streams: number; observables: number; promises: number; approvals: number; timers: number };
  /** Issues of the kept transcript (state$), and of agent-end's messages. */
  stateIssues: MessageSequenceIssue[];
  endIssues: MessageSequenceIssue[];
}

function momentOf(state: AgentState, ended: boolean, inBackoff: boolean): StopMoment {
  if (ended) return 'after-end';
  if (state.pendingApprovals.length > 0) return 'during-approval';
  if (state.pendingToolCalls.length > 0) return 'mid-tool';
  if ((state.streamingMessage?.content.length ?? 0) > 0) return 'mid-stream';
  if (inBackoff) return 'during-backoff';
  if (state.phase === 'llm-in-flight') return 'awaiting-model';
  return 'between';
}

/**
 * Plays a scenario in virtual time; with `stopAtMs`, aborts or unsubscribes at that moment.
 *
 * @example
 * const natural = await playAbortScenario(s);
 * const stopped = await playAbortScenario(s, Math.floor(s.at * natural.endedAt));
 */
export async function playAbortScenario(s: AbortScenario, stopAtMs?: number): Promise<AbortOutcome> {
  const scheduler = new VirtualTimeScheduler();
  const model = faultModel([...s.turns, { kind: 'text', deltas: 2 }], scheduler, s.modelLatencyMs);
  const kit = faultTools(scheduler, s.toolLatencyMs, s.approvalMs, s.approve);
  const controller = new AbortController();
  const { events$, state$ } = withState(
    runAgent({
      model,
      tools: kit.tools,
      approver: kit.approver,
      prompt: 'go',
      scheduler,
      signal: controller.signal,
      maxSteps: 12,
      maxRetries: 2,
      retryBackoff: { initialDelayMs: 10, jitter: 0 },
      toolConcurrency: s.toolConcurrency,
      toolTimeoutMs: 1_000,
    }),
  );
  let ended = false;
  let endedAt = 0;
  let error: unknown;
  let agentEnd: AgentEndEvent | undefined;
  let moment: StopMoment | undefined;
  let leftOpen: AbortOutcome['leftOpen'] | undefined;
  let stopper: Subscription | undefined;
  const end = () => {
    ended = true;
    endedAt = scheduler.now();
    stopper?.unsubscribe();
  };
  const sub = events$.subscribe({
    next: (event) => {
      if (event.type === 'agent-end') agentEnd = event;
    },
    error: (e: unknown) => {
      error = e;
      end();
    },
    complete: end,
  });
  if (stopAtMs !== undefined && !ended) {
    stopper = scheduler.schedule(() => {
      moment = momentOf(state$.value, ended, model.inBackoff && model.live === 0);
      if (s.stop === 'abort') controller.abort();
      else {
        sub.unsubscribe();
        end();
      }
    }, stopAtMs);
  }
  // Read what is open at the moment the run ends, before anything else runs.
  const snapshot = () => ({
    streams: model.live,
    observables: kit.liveObservables,
    promises: kit.unsettledPromises,
    approvals: kit.liveApprovals,
    timers: scheduler.actions.length,
  });
  await driveVirtualTime(scheduler, () => {
    if (ended) leftOpen ??= snapshot();
    return ended;
  });
  const state = state$.value;
  return {
    endedAt,
    ended,
    error,
    agentEnd,
    state,
    moment: moment ?? 'after-end',
    leftOpen: leftOpen ?? snapshot(),
    stateIssues: validateMessageSequence(state.messages),
    endIssues: agentEnd ? validateMessageSequence(agentEnd.messages) : [],
  };
}
