import type { AgentStop } from '../errors/agent-stop.js';
import { GuardrailStop } from '../guardrails/guardrail-stop.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';
import type { ToolCallPart, ToolResultMessage, Usage } from '../messages/types.js';
import type { CallSettled } from '../tools/call-settled.js';
import { errorToolResult } from '../tools/tool-output.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';

/**
 * Result text of calls not started because a steering message arrived (agentcore's wording).
 *
 * @example
 * const skipped = messages.filter((m) => m.role === 'tool' && contentText(m) === SKIPPED_FOR_STEERING_TEXT);
 */
export const SKIPPED_FOR_STEERING_TEXT = 'Skipped due to queued user message.';

/** Where the run keeps whether it warned about a Promise tool under virtual time (once a run). */
export const PROMISE_WARNED = 'executeTools.promiseWarned';

/** What a batch of calls knows as they settle. */
export interface BatchState {
  /** Each call's outcome, in call order (undefined: never started). */
  outcomes: (CallSettled | undefined)[];
  /** Consecutive failures per tool, for the breaker (the turn's own until a call changes it). */
  toolErrors: ReadonlyMap<string, number>;
  /** Why calls not started are skipped (a steering message, a tool that stopped the run). */
  skipText?: string;
  /** The first `AgentStop` a tool threw, and its call. */
  stop?: { error: AgentStop; call: ToolCallPart };
  promiseWarned: boolean;
  /** What sub-runs the calls started have spent so far. */
  subrunUsage?: Usage;
  /** The run's budget that said stop while the calls ran (see `watchBudgets`). */
  budgetStop?: StopSignal;
}

/**
 * The end of a batch: a skipped result (with its `tool-start` / `tool-end`) for each call never
 * started, the results' `message-start` / `message-end` in call order, then the turn with the
 * results — stopped when a tool threw `AgentStop` or a guardrail tripped, when a budget said stop
 * while the calls ran, or when every call was rejected.
 *
 * @example
 * for (const item of finishBatch(turn, calls, batch)) subscriber.next(item);
 */
export function finishBatch(turn: Turn, calls: readonly ToolCallPart[], batch: BatchState): LoopItem[] {
  const events: LoopItem[] = [];
  const now = turn.run.scheduler.now();
  const { outcomes } = batch;
  const results: ToolResultMessage[] = calls.map((call, i) => {
    let outcome = outcomes[i];
    if (!outcome) {
      outcome = {
        type: 'call-settled',
        result: errorToolResult(batch.skipText ?? SKIPPED_FOR_STEERING_TEXT),
        outcome: 'refused',
        end: 'skipped',
      };
      outcomes[i] = outcome;
      const { id, name, args } = call;
      events.push(
        { type: 'tool-start', toolCallId: id, toolName: name, args },
        {
          type: 'tool-end',
          toolCallId: id,
          toolName: name,
          args,
          result: outcome.result,
          isError: true,
          outcome: 'skipped',
        },
      );
    }
    const message: ToolResultMessage = {
      role: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      content: outcome.result.content,
      isError: outcome.result.isError,
      timestamp: now,
    };
    if (outcome.result.usage) message.usage = outcome.result.usage;
    return message;
  });
  for (const message of results)
    events.push({ type: 'message-start', message }, { type: 'message-end', message });
  let next = turn.withToolResults(results, batch.toolErrors);
  if (batch.subrunUsage) next = next.withUsage(batch.subrunUsage);
  if (batch.promiseWarned && turn.operatorState(PROMISE_WARNED) !== true)
    next = next.withOperatorState(PROMISE_WARNED, true);
  const stop = batch.stop;
  if (stop && GuardrailStop.isInstance(stop.error)) {
    next = next.withStop(stop.error.signal);
  } else if (stop) {
    next = next.withStop(
      stopSignal('stop-requested', stop.error.reason, {
        source: stop.call.name,
        ...(stop.error.context ? { context: stop.error.context } : {}),
      }),
    );
  } else if (batch.budgetStop) {
    next = next.withStop(batch.budgetStop);
  } else if (outcomes.every((o) => o?.outcome === 'rejected')) {
    next = next.withStop(stopSignal('rejected', `Every tool call of step ${turn.step} was rejected.`));
  }
  events.push(next);
  return events;
}
