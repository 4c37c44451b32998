import {
  concatMap,
  defaultIfEmpty,
  defer,
  map,
  Observable,
  of,
  race,
  take,
  tap,
  timer,
  type SchedulerLike,
} from 'rxjs';
import { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent, ToolResult } from '../events/agent-event.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import { toObservable } from '../util/to-observable.js';
import type { AnyTool, ToolContext } from './tool.js';
import type { ApprovalDecision, Approver, ToolGate, ToolMiddleware } from './tool-hooks.js';
import { errorText, errorToolResult, toToolResult } from './tool-output.js';
import { validateToolCall } from './validate-args.js';

/** What happened to one call, for the circuit breaker and the stop rules. */
export type CallOutcome = 'success' | 'error' | 'refused' | 'rejected';

/** The end of one call's pipeline. */
export interface CallSettled {
  type: 'call-settled';
  result: ToolResult;
  outcome: CallOutcome;
  stop?: AgentStop;
}

/** Everything one call's pipeline needs. */
export interface ToolCallEnv {
  runId: string;
  call: ToolCallPart;
  tool: AnyTool | undefined;
  toolNames: readonly string[];
  signal: AbortSignal;
  /** Aborts the call's signal (on timeout). */
  abort(reason: string): void;
  scheduler: SchedulerLike;
  messages: readonly AgentMessage[];
  timeoutMs: number;
  /** The run lists this tool in `approvalRequired` (the tool's own `needsApproval` is checked too). */
  approvalRequired: boolean;
  approver?: Approver;
  toolGate?: ToolGate;
  middlewares: readonly ToolMiddleware[];
}

const settled = (result: ToolResult, outcome: CallOutcome, stop?: AgentStop): CallSettled =>
  stop ? { type: 'call-settled', result, outcome, stop } : { type: 'call-settled', result, outcome };
const refuse = (text: string, outcome: CallOutcome = 'error') => of(settled(errorToolResult(text), outcome));

function decide(decision: ApprovalDecision): { approved: boolean; reason?: string } {
  return typeof decision === 'boolean' ? { approved: decision } : decision;
}

/**
 * Runs one tool call through its pipeline — arguments → `validate` → `preview` → approval →
 * gate → middlewares → `execute` (with its timeout) — emitting `tool-update` and approval
 * events on the way and ending with one `call-settled`. Every refusal or failure is an error
 * result the model reads; only `AgentStop` is passed on (as `stop`).
 *
 * @example
 * runToolCall(env).subscribe((e) => e.type === 'call-settled' && console.log(e.result));
 */
export function runToolCall(env: ToolCallEnv): Observable<AgentEvent | CallSettled> {
  return new Observable<AgentEvent | CallSettled>((subscriber) => {
    const { call, tool } = env;
    const emit = (event: AgentEvent) => subscriber.next(event);
    if (!tool) {
      const available = env.toolNames.length ? env.toolNames.join(', ') : 'none';
      subscriber.next(
        settled(errorToolResult(`Unknown tool "${call.name}". Available tools: ${available}.`), 'error'),
      );
      subscriber.complete();
      return;
    }
    const validation = validateToolCall(tool, call);
    if (!validation.ok) {
      subscriber.next(settled(errorToolResult(validation.error), 'error'));
      subscriber.complete();
      return;
    }
    const ctx: ToolContext = {
      runId: env.runId,
      toolCallId: call.id,
      toolName: call.name,
      signal: env.signal,
      scheduler: env.scheduler,
      messages: env.messages,
      progress: (progress) =>
        emit({ type: 'tool-update', toolCallId: call.id, toolName: call.name, kind: 'progress', progress }),
    };
    const args = validation.args;

    const validate$ = defer(() => toObservable(tool.validate ? tool.validate(args, ctx) : undefined));
    const pipeline$ = validate$.pipe(
      concatMap((refusal) => {
        if (typeof refusal === 'string' && refusal) return refuse(refusal);
        if (tool.preview) {
          try {
            emit({
              type: 'tool-update',
              toolCallId: call.id,
              toolName: call.name,
              kind: 'preview',
              preview: tool.preview(args, ctx),
            });
          } catch {
            // A preview is advisory: a failing one must not block the call.
          }
        }
        const needsApproval = env.approvalRequired || flag(tool.needsApproval, args, false);
        return approve(env, needsApproval, args, emit).pipe(
          concatMap((approval) => {
            if (!approval.approved) return refuse(approval.reason ?? 'Tool call rejected.', 'rejected');
            return gate(env).pipe(
              concatMap((gateDecision) =>
                gateDecision && !gateDecision.allowed
                  ? refuse(gateDecision.reason || 'Tool execution denied.', 'refused')
                  : execute(env, { ...call, args }, ctx),
              ),
            );
          }),
        );
      }),
    );
    return pipeline$.subscribe({
      next: (value) => subscriber.next(value),
      error: (error: unknown) => {
        // validate / approver / gate threw: a refusal the model reads, not a failed run.
        subscriber.next(settled(errorToolResult(errorText(error)), 'error'));
        subscriber.complete();
      },
      complete: () => subscriber.complete(),
    });
  });
}

/** A tool flag that may be a function of the arguments; a throwing function counts as `fallback`. */
export function flag(
  value: boolean | ((args: never) => boolean) | undefined,
  args: unknown,
  fallback: boolean,
): boolean {
  if (value === undefined) return fallback;
  if (typeof value === 'boolean') return value;
  try {
    return (value as (args: unknown) => boolean)(args) === true;
  } catch {
    return fallback;
  }
}

function approve(env: ToolCallEnv, needsApproval: boolean, args: unknown, emit: (e: AgentEvent) => void) {
  if (!needsApproval) return of({ approved: true } as { approved: boolean; reason?: string });
  const { call } = env;
  return defer(() => {
    emit({ type: 'approval-request', toolCallId: call.id, toolName: call.name, args });
    if (!env.approver) {
      return of({ approved: false, reason: 'Tool call needs approval but no approver is configured.' });
    }
    return toObservable(env.approver({ toolCallId: call.id, toolName: call.name, args })).pipe(
      take(1),
      map(decide),
      defaultIfEmpty({ approved: false, reason: 'No approval decision was made.' }),
    );
  }).pipe(
    map((decision) => {
      const end: AgentEvent = {
        type: 'approval-end',
        toolCallId: call.id,
        toolName: call.name,
        approved: decision.approved,
      };
      if (decision.reason !== undefined) end.reason = decision.reason;
      emit(end);
      return decision;
    }),
  );
}

function gate(env: ToolCallEnv) {
  if (!env.toolGate || !env.tool) return of(undefined);
  const toolGate = env.toolGate;
  const tool = env.tool;
  return defer(() => toObservable(toolGate({ call: env.call, tool })));
}

function execute(env: ToolCallEnv, call: ToolCallPart, ctx: ToolContext): Observable<CallSettled> {
  const tool = env.tool as AnyTool;
  const inner = (c: ToolCallPart): Observable<ToolResult> =>
    defer(() => lastValueAsResult(toObservable(tool.execute(c.args, ctx)), ctx)).pipe(
      map((v) => toToolResult(tool, v)),
    );
  const chain = env.middlewares.reduceRight<(c: ToolCallPart) => Observable<ToolResult>>(
    (next, middleware) => (c) =>
      defer(() => toObservable(middleware(c, ctx, next) as Observable<ToolResult>)),
    inner,
  );
  const run$ = new Observable<CallSettled>((subscriber) =>
    chain(call).subscribe({
      next: (result) => subscriber.next(settled(result, result.isError ? 'error' : 'success')),
      error: (error: unknown) => {
        if (AgentStop.isInstance(error)) {
          subscriber.next(
            settled({ content: [{ type: 'text', text: error.reason }], isError: false }, 'success', error),
          );
        } else {
          subscriber.next(settled(errorToolResult(errorText(error)), 'error'));
        }
        subscriber.complete();
      },
      complete: () => subscriber.complete(),
    }),
  );
  const timedOut$ = timer(env.timeoutMs, env.scheduler).pipe(
    tap(() => env.abort('timeout')),
    map(() => settled(errorToolResult(`Tool "${call.name}" timed out after ${env.timeoutMs} ms.`), 'error')),
  );
  return race(firstSettled(run$), timedOut$);
}

function firstSettled(source: Observable<CallSettled>): Observable<CallSettled> {
  return new Observable<CallSettled>((subscriber) => {
    let seen = false;
    return source.subscribe({
      next: (value) => {
        if (seen) return;
        seen = true;
        subscriber.next(value);
        subscriber.complete();
      },
      error: (e: unknown) => subscriber.error(e),
      complete: () => {
        if (!seen)
          subscriber.next(settled({ content: [{ type: 'text', text: '' }], isError: false }, 'success'));
        subscriber.complete();
      },
    });
  });
}

/** Values before the last are progress; the last is the result (undefined when none). */
function lastValueAsResult(source: Observable<unknown>, ctx: ToolContext): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let has = false;
    let last: unknown;
    return source.subscribe({
      next: (value) => {
        if (has) ctx.progress(last);
        has = true;
        last = value;
      },
      error: (e: unknown) => subscriber.error(e),
      complete: () => {
        subscriber.next(last);
        subscriber.complete();
      },
    });
  });
}
