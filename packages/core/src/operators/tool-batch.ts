import { concatMap, defer, filter, from, merge, mergeMap, Observable, of, startWith, take } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolCallPart } from '../messages/types.js';
import { flag, type CallItem, type CallSettled } from '../tools/call-settled.js';
import { errorToolResult } from '../tools/tool-output.js';
import { promiseToolWarning } from '../tools/virtual-time-warning.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { chainedObserver } from '../util/chained-observer.js';
import type { ExecuteToolsOptions } from './execute-tools.js';
import { finishBatch, PROMISE_WARNED, SKIPPED_FOR_STEERING_TEXT, type BatchState } from './finish-batch.js';
import { runToolCall } from './run-tool-call.js';
import { adoptEagerCalls } from './eager-adoption.js';
import { toolCallEnv } from './tool-call-env.js';
import { CANCELLED_FOR_BUDGET_TEXT, watchBudgets } from './batch-budget.js';
import { cutOff } from './cut-off.js';
import { toolOutcomeOf } from '../tools/tool-outcome.js';
import { addSpent } from '../state/spent-usage.js';
import { toolGuardEnv } from './tool-guard-env.js';

export { SKIPPED_FOR_STEERING_TEXT } from './finish-batch.js';

/**
 * Result text of calls not started because a tool threw `AgentStop`.
 *
 * @example
 * expect(contentText(toolResult)).toBe(SKIPPED_FOR_STOP_TEXT);
 */
export const SKIPPED_FOR_STOP_TEXT = 'Skipped because a tool stopped the run.';
/**
 * Result text of an interruptible call cancelled by a steering message.
 *
 * @example
 * expect(contentText(toolResult)).toBe(CANCELLED_FOR_STEERING_TEXT); // an `interrupt: 'cancel'` tool
 */
export const CANCELLED_FOR_STEERING_TEXT = 'Tool call was cancelled: a user message arrived.';

/** Consecutive calls that may share the pool, or one call that runs alone. */
interface Group {
  safe: boolean;
  indexes: number[];
}

function groupsOf(turn: Turn, calls: readonly ToolCallPart[]): Group[] {
  const groups: Group[] = [];
  calls.forEach((call, i) => {
    const safe = flag(turn.tools.get(call.name)?.concurrencySafe, call.args, true);
    const last = groups[groups.length - 1];
    if (safe && last?.safe) last.indexes.push(i);
    else groups.push({ safe, indexes: [i] });
  });
  return groups;
}

/**
 * The tool calls of one turn as a cold Observable: started in call order, up to
 * `concurrency` at once (a call whose tool is not concurrency-safe alone); `tool-start`,
 * progress, approvals and `tool-end` as they happen (completion order); then the results'
 * `message-start`/`message-end` in call order and the turn with the results. A steering
 * message (interrupt mode) stops starting calls and cancels running `interrupt: 'cancel'`
 * tools; `AgentStop` stops starting calls and ends the run after the turn; a run's budget
 * (`run.settings.budgets`) that says stop as sub-runs or tools spend stops starting calls, cuts
 * the running ones and ends the run after the turn; the breaker counts consecutive failures per
 * tool. Unsubscribing aborts every running call.
 *
 * @example
 * runToolBatch(turn, toolCalls(turn.assistant), { concurrency: 2 }).subscribe((item) => console.log(item.type));
 */
export function runToolBatch(
  turn: Turn,
  calls: readonly ToolCallPart[],
  options: ExecuteToolsOptions,
): Observable<LoopItem> {
  return new Observable<LoopItem>((subscriber) => {
    const { run } = turn;
    const defaults = run.settings.tools;
    const concurrency = options.concurrency ?? defaults.concurrency;
    const maxToolErrors = options.maxToolErrors ?? defaults.maxToolErrors;
    const batch: BatchState = {
      outcomes: calls.map(() => undefined),
      toolErrors: turn.toolErrors,
      promiseWarned: turn.operatorState<boolean>(PROMISE_WARNED) === true,
    };
    const interruptQueues = turn.steering.filter((s) => s.mode === 'interrupt').map((s) => s.queue);
    const guard = toolGuardEnv(turn, options.guardrails);
    let callsDone = false;
    // Progress may come at any time while the calls run (never after). A sub-run's spending
    // counts in the run's usage as it comes, also when its call times out.
    // The run's budgets, checked as the calls spend: one that says stop cuts the batch short.
    const budget = watchBudgets(turn, batch);
    const progress = (event: AgentEvent): void => {
      if (callsDone) return;
      const before = batch.subrunUsage;
      if (event.type === 'subrun') batch.subrunUsage = addSpent(before, event.event);
      subscriber.next(event);
      if (batch.subrunUsage !== before) budget?.check();
    };
    // The calls the model call started early (eager tools): adopted, never run twice.
    const early = adoptEagerCalls(turn, calls, options, guard, progress);
    if (turn.eager) {
      const eager = turn.eager;
      subscriber.add(() => eager.abandon());
      if (eager.spent) batch.subrunUsage = eager.spent;
      batch.promiseWarned ||= eager.promiseWarned;
    }
    const onPromise = (toolName: string): void => {
      if (batch.promiseWarned) return;
      const warning = promiseToolWarning(run.scheduler, toolName);
      if (!warning) return;
      batch.promiseWarned = true;
      progress(warning);
    };

    const steered = (): boolean => {
      if (!batch.skipText && interruptQueues.some((q) => q.size > 0))
        batch.skipText = SKIPPED_FOR_STEERING_TEXT;
      return batch.skipText !== undefined;
    };
    // Emits when a steering message is (or already was) queued: cancels `interrupt: 'cancel'` tools.
    const interrupted$ = defer(() =>
      merge(...interruptQueues.map((q) => q.pushed$)).pipe(
        startWith(undefined),
        filter(() => steered()),
        take(1),
      ),
    );

    const settle = (i: number, outcome: CallSettled): AgentEvent => {
      const call = calls[i] as ToolCallPart;
      batch.outcomes[i] = outcome;
      const errors = batch.toolErrors;
      if (outcome.outcome === 'error') {
        batch.toolErrors = new Map(errors).set(call.name, (errors.get(call.name) ?? 0) + 1);
      } else if (outcome.outcome === 'success' && errors.has(call.name)) {
        const next = new Map(errors);
        next.delete(call.name);
        batch.toolErrors = next;
      }
      if (outcome.stop && !batch.stop) {
        batch.stop = { error: outcome.stop, call };
        batch.skipText ??= SKIPPED_FOR_STOP_TEXT;
      }
      const { result } = outcome;
      return {
        type: 'tool-end',
        toolCallId: call.id,
        toolName: call.name,
        args: call.args,
        result,
        isError: result.isError,
        outcome: toolOutcomeOf(outcome),
      };
    };

    const callOf = (i: number): Observable<CallItem> => {
      const call = calls[i] as ToolCallPart;
      const tool = turn.tools.get(call.name);
      let call$ = early?.[i];
      if (!call$) {
        if (maxToolErrors > 0 && (batch.toolErrors.get(call.name) ?? 0) >= maxToolErrors) {
          const text = `Tool "${call.name}" disabled after ${maxToolErrors} consecutive errors.`;
          return of({ type: 'call-settled', result: errorToolResult(text), outcome: 'refused' });
        }
        call$ = runToolCall(toolCallEnv(turn, call, options, guard, { progress, onPromise }));
      }
      if (budget) call$ = cutOff(call$, budget.stopped$, CANCELLED_FOR_BUDGET_TEXT);
      return tool?.interrupt === 'cancel' && interruptQueues.length > 0
        ? cutOff(call$, interrupted$, CANCELLED_FOR_STEERING_TEXT)
        : call$;
    };

    // One call: its tool-start, its events, its tool-end (nothing when a steering message came first).
    const runOne = (i: number): Observable<AgentEvent> =>
      new Observable<AgentEvent>((s) => {
        const started = early?.[i] !== undefined; // its tool-start came during the model call
        if (!started && steered()) {
          s.complete(); // left for the skipped results at the end
          return;
        }
        const call = calls[i] as ToolCallPart;
        if (!started)
          s.next({ type: 'tool-start', toolCallId: call.id, toolName: call.name, args: call.args });
        if (s.closed) return; // the subscriber left from inside its `next`: the tool never starts
        callOf(i).subscribe(
          chainedObserver<CallItem>(s, {
            next: (item) => {
              s.next(item.type === 'call-settled' ? settle(i, item) : item);
              if (item.type === 'call-settled' && item.result.usage) budget?.check();
            },
            error: (error: unknown) => s.error(error),
            complete: () => s.complete(),
          }),
        );
      });

    // One call (the common case) needs no grouping.
    const calls$ =
      calls.length === 1
        ? runOne(0)
        : from(groupsOf(turn, calls)).pipe(
            concatMap((group) =>
              group.safe
                ? from(group.indexes).pipe(mergeMap(runOne, concurrency))
                : runOne(group.indexes[0] as number),
            ),
          );
    calls$.subscribe(
      chainedObserver<AgentEvent>(subscriber, {
        next: (event) => subscriber.next(event),
        error: (error: unknown) => {
          callsDone = true;
          subscriber.error(error);
        },
        complete: () => {
          callsDone = true;
          for (const item of finishBatch(turn, calls, batch)) subscriber.next(item);
          subscriber.complete();
        },
      }),
    );
  });
}
