import type { Observable } from 'rxjs';
import {
  concat,
  concatMap,
  defer,
  EMPTY,
  filter,
  from,
  map,
  merge,
  mergeMap,
  of,
  startWith,
  Subject,
  take,
  takeUntil,
  tap,
} from 'rxjs';
import type { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../loop/turn.js';
import type { LoopItem } from '../loop/loop-item.js';
import type { ToolCallPart, ToolResultMessage } from '../messages/types.js';
import { stopSignal } from '../stop/stop-signal.js';
import { GuardrailStop } from '../errors/guardrail-stop.js';
import { toolGuardEnv } from '../guardrails/tool-guard-env.js';
import { flag, type CallSettled } from '../tools/call-settled.js';
import { runToolCall, type CallItem } from '../tools/run-tool-call.js';
import { errorToolResult } from '../tools/tool-output.js';
import type { ToolScope } from '../tools/execute-tool.js';
import type { ToolScopeCall } from '../loop/run-instrument.js';
import type { ExecuteToolsOptions } from './execute-tools.js';

/**
 * Result text of calls not started because a steering message arrived (agentcore's wording).
 *
 * @example
 * const skipped = messages.filter((m) => m.role === 'tool' && contentText(m) === SKIPPED_FOR_STEERING_TEXT);
 */
export const SKIPPED_FOR_STEERING_TEXT = 'Skipped due to queued user message.';
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
 * tools; `AgentStop` stops starting calls and ends the run after the turn; the breaker counts
 * consecutive failures per tool. Unsubscribing aborts every running call.
 *
 * @example
 * runToolBatch(turn, toolCalls(turn.assistant), { concurrency: 2 }).subscribe((item) => console.log(item.type));
 */
export function runToolBatch(
  turn: Turn,
  calls: readonly ToolCallPart[],
  options: ExecuteToolsOptions,
): Observable<LoopItem> {
  return defer(() => {
    const { run } = turn;
    const config = run.config;
    const concurrency = options.concurrency ?? config.toolConcurrency ?? 8;
    const maxToolErrors = options.maxToolErrors ?? config.maxToolErrors ?? 3;
    const outcomes: (CallSettled | undefined)[] = calls.map(() => undefined);
    const toolErrors = new Map(turn.toolErrors);
    const progress = new Subject<AgentEvent>();
    const interruptQueues = turn.steering.filter((s) => s.mode === 'interrupt').map((s) => s.queue);
    const instrument = config.instrument;
    const toolScope: ToolScope | undefined =
      instrument?.toolScope !== undefined
        ? <T>(call: ToolScopeCall, execute: () => T): T =>
            (instrument.toolScope as NonNullable<typeof instrument.toolScope>).call(
              instrument,
              call,
              execute,
            ) as T
        : undefined;
    let skipText: string | undefined;
    let stop: { error: AgentStop; call: ToolCallPart } | undefined;
    const guard = toolGuardEnv(turn, options.guardrails);

    const steered = (): boolean => {
      if (!skipText && interruptQueues.some((q) => q.size > 0)) skipText = SKIPPED_FOR_STEERING_TEXT;
      return skipText !== undefined;
    };
    // Emits when a steering message is (or already was) queued: cancels `interrupt: 'cancel'` tools.
    const interrupted$ = merge(...interruptQueues.map((q) => q.pushed$)).pipe(
      startWith(undefined),
      filter(() => steered()),
      take(1),
    );

    const settle = (i: number, outcome: CallSettled): AgentEvent => {
      const call = calls[i] as ToolCallPart;
      outcomes[i] = outcome;
      if (outcome.outcome === 'error') toolErrors.set(call.name, (toolErrors.get(call.name) ?? 0) + 1);
      else if (outcome.outcome === 'success') toolErrors.delete(call.name);
      if (outcome.stop && !stop) {
        stop = { error: outcome.stop, call };
        skipText ??= SKIPPED_FOR_STOP_TEXT;
      }
      const { result } = outcome;
      return {
        type: 'tool-end',
        toolCallId: call.id,
        toolName: call.name,
        args: call.args,
        result,
        isError: result.isError,
      };
    };

    const runOne = (i: number): Observable<AgentEvent> =>
      defer(() => {
        if (steered()) return EMPTY; // left for the skipped results at the end
        const call = calls[i] as ToolCallPart;
        const tool = turn.tools.get(call.name);
        const start: AgentEvent = {
          type: 'tool-start',
          toolCallId: call.id,
          toolName: call.name,
          args: call.args,
        };
        if (maxToolErrors > 0 && (toolErrors.get(call.name) ?? 0) >= maxToolErrors) {
          const text = `Tool "${call.name}" disabled after ${maxToolErrors} consecutive errors.`;
          return of(
            start,
            settle(i, { type: 'call-settled', result: errorToolResult(text), outcome: 'refused' }),
          );
        }
        let call$: Observable<CallItem> = runToolCall({
          runId: run.runId,
          call,
          tool,
          tools: turn.tools,
          scheduler: run.scheduler,
          messages: turn.messages,
          timeoutMs: tool?.timeoutMs ?? options.timeoutMs ?? config.toolTimeoutMs ?? 30_000,
          approvalRequired: (options.approvalRequired ?? config.approvalRequired ?? []).includes(call.name),
          approver: options.approver ?? config.approver,
          ...(config.elicit ? { elicit: config.elicit } : {}),
          toolGate: options.toolGate ?? config.toolGate,
          middlewares: options.middlewares ?? config.middlewares ?? [],
          ...(guard ? { guard } : {}),
          progress: (event) => progress.next(event),
          ...(toolScope ? { toolScope } : {}),
        });
        if (tool?.interrupt === 'cancel' && interruptQueues.length > 0) {
          const cancelled: CallSettled = {
            type: 'call-settled',
            result: errorToolResult(CANCELLED_FOR_STEERING_TEXT),
            outcome: 'refused',
          };
          let done = false;
          call$ = concat(
            call$.pipe(
              takeUntil(interrupted$),
              tap((item) => (done ||= item.type === 'call-settled')),
            ),
            // Cut off before its outcome: the steering message cancelled it.
            defer(() => (done ? EMPTY : of(cancelled))),
          );
        }
        return concat(
          of(start),
          call$.pipe(map((item) => (item.type === 'call-settled' ? settle(i, item) : item))),
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
    const work$ = calls$.pipe(tap({ complete: () => progress.complete(), error: () => progress.complete() }));

    const finish = (): Observable<LoopItem> => {
      const events: LoopItem[] = [];
      const now = run.scheduler.now();
      const results: ToolResultMessage[] = calls.map((call, i) => {
        let outcome = outcomes[i];
        if (!outcome) {
          outcome = {
            type: 'call-settled',
            result: errorToolResult(skipText ?? SKIPPED_FOR_STEERING_TEXT),
            outcome: 'refused',
          };
          outcomes[i] = outcome;
          const { id, name, args } = call;
          events.push(
            { type: 'tool-start', toolCallId: id, toolName: name, args },
            { type: 'tool-end', toolCallId: id, toolName: name, args, result: outcome.result, isError: true },
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
      let next = turn.withToolResults(results, toolErrors);
      if (stop && GuardrailStop.isInstance(stop.error)) {
        next = next.withStop(stop.error.signal);
      } else if (stop) {
        next = next.withStop(
          stopSignal('stop-requested', stop.error.reason, {
            source: stop.call.name,
            ...(stop.error.context ? { context: stop.error.context } : {}),
          }),
        );
      } else if (outcomes.every((o) => o?.outcome === 'rejected')) {
        next = next.withStop(stopSignal('rejected', `Every tool call of step ${turn.step} was rejected.`));
      }
      events.push(next);
      return from(events);
    };

    return concat(merge(progress, work$), defer(finish));
  });
}
