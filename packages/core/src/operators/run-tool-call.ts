import {
  catchError,
  concat,
  concatMap,
  defaultIfEmpty,
  isObservable,
  map,
  Observable,
  of,
  take,
  type SchedulerLike,
} from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import { chainedObserver } from '../util/chained-observer.js';
import { clip } from '../util/clip.js';
import { LazyAbortController } from '../util/lazy-abort.js';
import { isPromiseLike, toObservable } from '../util/to-observable.js';
import { approvalNeeded, toApprovalDecision } from '../tools/approval-decision.js';
import { CallContext } from '../tools/call-context.js';
import { settled, type CallItem, type CallOutcome, type CallSettled } from '../tools/call-settled.js';
import { executeTool } from '../tools/execute-tool.js';
import type { ToolScope } from '../tools/tool-scope.js';
import { guardToolCall, type ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { AnyTool } from '../tools/tool.js';
import type { RunLineage } from '../tools/run-lineage.js';
import type { Elicitor } from '../elicitation/elicitation-types.js';
import type { Approver, GateDecision, ToolGate, ToolMiddleware } from '../tools/tool-hooks.js';
import { errorText, errorToolResult } from '../tools/tool-output.js';
import { validateToolCall } from '../tools/validate-args.js';

/** Everything one call's pipeline needs. */
export interface ToolCallEnv {
  runId: string;
  call: ToolCallPart;
  tool: AnyTool | undefined;
  /** The run's tools (named in the error for an unknown tool). */
  tools: ReadonlyMap<string, AnyTool>;
  scheduler: SchedulerLike;
  messages: readonly AgentMessage[];
  /** Infinity: no timeout. */
  timeoutMs: number;
  /** The run lists this tool in `approvalRequired` (the tool's own `needsApproval` is checked too). */
  approvalRequired: boolean;
  approver?: Approver;
  toolGate?: ToolGate;
  middlewares: readonly ToolMiddleware[];
  /** Tool guardrails around the execution (after the gate, outside the middlewares). */
  guard?: ToolGuardEnv;
  /** Where progress reported with `ctx.progress` goes (it may come at any time). */
  progress(event: AgentEvent): void;
  /** The run instrument's scope around the execution. */
  toolScope?: ToolScope;
  /** Answers the elicitations the tool makes (`ctx.elicit`). */
  elicit?: Elicitor;
  /** Where the run sits among the runs that started it (for tools that start sub-runs). */
  lineage?: RunLineage;
  /** Told when `execute` returned a Promise (to warn under virtual time). */
  onPromise?(toolName: string): void;
}

type Hook<T> = T | PromiseLike<T> | Observable<T>;
type Answer<T> = { ok: true; value: T | undefined } | { ok: false; error: string };

/** A hook's first answer (a throw or an error is `ok: false`); synchronous for a plain value. */
function answer<T>(hook: () => Hook<T>): Observable<Answer<T>> {
  let value: Hook<T>;
  try {
    value = hook();
  } catch (error) {
    return of({ ok: false, error: errorText(error) });
  }
  if (!isPromiseLike(value) && !isObservable(value)) return of({ ok: true, value });
  return toObservable(value).pipe(
    take(1),
    map((v): Answer<T> => ({ ok: true, value: v })),
    defaultIfEmpty<Answer<T>, Answer<T>>({ ok: true, value: undefined }),
    catchError((error: unknown) => of<Answer<T>>({ ok: false, error: errorText(error) })),
  );
}

const refused = (text: string, outcome: CallOutcome = 'error'): CallSettled =>
  settled(errorToolResult(text), outcome);

/**
 * One tool call through its pipeline — arguments → `validate` → `preview` → approval → gate →
 * middlewares → `execute` (with its timeout) — as a cold Observable of the call's
 * `tool-update` and approval events, ending with one outcome. Every refusal or failure is an
 * error result the model reads; only `AgentStop` is passed on (as `stop`). Approvals fail
 * closed: only `true` or `{ approved: true }` lets the call run. Unsubscribing before the
 * outcome aborts the call's signal.
 *
 * @example
 * runToolCall(env).subscribe((item) => console.log(item.type));
 */
export function runToolCall(env: ToolCallEnv): Observable<CallItem> {
  return new Observable<CallItem>((subscriber) => {
    const { call, tool } = env;
    const settleNow = (outcome: CallSettled): void => {
      subscriber.next(outcome);
      subscriber.complete();
    };
    if (!tool) {
      const available = env.tools.size ? [...env.tools.keys()].join(', ') : 'none';
      settleNow(refused(`Unknown tool "${clip(call.name, 100)}". Available tools: ${available}.`));
      return undefined;
    }
    const validation = validateToolCall(tool, call);
    if (!validation.ok) {
      settleNow(refused(validation.error));
      return undefined;
    }
    const args = validation.args;
    const cancel = new LazyAbortController();
    const ctx = new CallContext(
      env.runId,
      call.id,
      call.name,
      cancel,
      env.scheduler,
      env.messages,
      (event) => env.progress(event),
      env.approver,
      env.lineage,
      env.elicit,
    );
    let ended = false;

    const start = (finalArgs: unknown): CallSettled | Observable<CallSettled> =>
      executeTool(
        { ...call, args: finalArgs },
        {
          tool,
          ctx,
          middlewares: env.middlewares,
          timeoutMs: env.timeoutMs,
          scheduler: env.scheduler,
          onTimeout: () => cancel.abort('timeout'),
          ...(env.toolScope ? { toolScope: env.toolScope } : {}),
          onPromise: () => env.onPromise?.(call.name),
        },
      );
    const run = (finalArgs: unknown): Observable<CallItem> => {
      const outcome = start(finalArgs);
      return isObservable(outcome) ? outcome : of(outcome);
    };
    const execute = (): Observable<CallItem> =>
      env.guard ? guardToolCall(env.guard, call, args, run) : run(args);

    const gate = (): Observable<CallItem> => {
      const toolGate = env.toolGate;
      if (!toolGate) return execute();
      return answer<GateDecision | undefined | void>(() => toolGate({ call, tool })).pipe(
        concatMap((a) => {
          if (!a.ok)
            return of(refused(`The tool gate failed, so the call was refused: ${a.error}`, 'refused'));
          const decision = a.value;
          return decision && !decision.allowed
            ? of(refused(decision.reason || 'Tool execution denied.', 'refused'))
            : execute();
        }),
      );
    };

    const approve = (): Observable<CallItem> => {
      const need = approvalNeeded(tool, args, env.approvalRequired);
      if ('refused' in need) return of(refused(need.refused));
      if (!need.needed) return gate();
      const request: AgentEvent = {
        type: 'approval-request',
        toolCallId: call.id,
        toolName: call.name,
        args,
      };
      const approver = env.approver;
      const answer$ = approver
        ? answer(() => approver({ toolCallId: call.id, toolName: call.name, args }))
        : of<Answer<unknown>>({ ok: true, value: undefined });
      return concat(
        of(request),
        answer$.pipe(
          concatMap((a) => {
            // A failing approver is an error of the call (the run goes on); any other "no" a rejection.
            const decision = a.ok
              ? toApprovalDecision(a.value, approver !== undefined)
              : {
                  approved: false,
                  reason: `The approver failed, so the call was refused: ${a.error}`,
                  failed: true,
                };
            const end: AgentEvent = {
              type: 'approval-end',
              toolCallId: call.id,
              toolName: call.name,
              approved: decision.approved,
            };
            if (decision.reason !== undefined) end.reason = decision.reason;
            return concat(
              of(end),
              decision.approved
                ? gate()
                : of(
                    refused(
                      decision.reason ?? 'Tool call rejected.',
                      'failed' in decision ? 'error' : 'rejected',
                    ),
                  ),
            );
          }),
        ),
      );
    };

    const afterValidate = (): Observable<CallItem> => {
      if (!tool.preview) return approve();
      let preview: unknown;
      try {
        preview = tool.preview(args, ctx);
      } catch {
        // A preview is advisory: a failing one must not block the call.
        return approve();
      }
      const event: AgentEvent = {
        type: 'tool-update',
        toolCallId: call.id,
        toolName: call.name,
        kind: 'preview',
        preview,
      };
      return concat(of(event), approve());
    };

    const finish = (): void => {
      ctx.open = false;
      // Cut off before its outcome (unsubscribed, interrupted): the tool sees the abort.
      if (!ended) cancel.abort('cancelled');
    };
    // No hook between the arguments and the tool (the common call): run it at once, and a
    // synchronous tool settles without another subscription.
    const direct =
      !tool.validate &&
      !tool.preview &&
      !env.toolGate &&
      !env.guard &&
      !env.approvalRequired &&
      (tool.needsApproval === undefined || tool.needsApproval === false);
    const outcome = direct ? start(args) : undefined;
    if (outcome && !isObservable(outcome)) {
      ended = true;
      ctx.open = false;
      settleNow(outcome);
      return undefined;
    }
    const pipeline$: Observable<CallItem> =
      outcome ??
      (tool.validate
        ? answer(() => tool.validate?.(args, ctx)).pipe(
            concatMap((a) => {
              if (!a.ok) return of(refused(a.error));
              return typeof a.value === 'string' && a.value ? of(refused(a.value)) : afterValidate();
            }),
          )
        : afterValidate());
    pipeline$.subscribe(
      chainedObserver<CallItem>(subscriber, {
        next: (item) => {
          if (item.type === 'call-settled') ended = true;
          subscriber.next(item);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      }),
    );
    return finish;
  });
}
