import { chainedObserver } from '../util/chained-observer.js';
import type { Subscription } from 'rxjs';
import {
  catchError,
  defer,
  from,
  isObservable,
  last,
  map,
  Observable,
  of,
  timeout,
  type SchedulerLike,
} from 'rxjs';
import { AgentStop } from '../errors/agent-stop.js';
import type { ToolResult } from '../events/agent-event.js';
import type { ToolCallPart } from '../messages/types.js';
import { isPromiseLike } from '../util/to-observable.js';
import type { CallContext } from './call-context.js';
import { settled, type CallSettled } from './call-settled.js';
import type { AnyTool } from './tool.js';
import type { ToolMiddleware } from './tool-hooks.js';
import type { ToolScope } from './tool-scope.js';
import { errorText, errorToolResult, toToolResult } from './tool-output.js';

/** What `executeTool` needs besides the call. */
export interface ExecuteToolEnv {
  tool: AnyTool;
  ctx: CallContext;
  middlewares: readonly ToolMiddleware[];
  /** Infinity: no timeout. */
  timeoutMs: number;
  scheduler: SchedulerLike;
  /** Called when the timeout fires (aborts the call's signal). */
  onTimeout(): void;
  /** Called when `execute` returned a Promise (to warn under virtual time). */
  onPromise?(): void;
  /** Runs the execution inside the run instrument's scope (see `RunInstrument.toolScope`). */
  toolScope?: ToolScope;
}

/** Subscribes to `run$` inside the scope, so what the tool starts then belongs to it. */
function scoped<T>(env: ExecuteToolEnv, call: ToolCallPart, run$: Observable<T>): Observable<T> {
  const scope = env.toolScope;
  if (!scope) return run$;
  const info = { runId: env.ctx.runId, toolCallId: call.id, toolName: call.name };
  return new Observable<T>((subscriber) => scope(info, () => run$.subscribe(subscriber)));
}

function failure(error: unknown): CallSettled {
  if (AgentStop.isInstance(error)) {
    return settled({ content: [{ type: 'text', text: error.reason }], isError: false }, 'success', error);
  }
  const result = errorToolResult(errorText(error));
  if (error instanceof Error) result.errorType = error.name;
  return settled(result, 'error');
}

const fromResult = (result: ToolResult): CallSettled => settled(result, result.isError ? 'error' : 'success');
const MAX_TIMER_MS = 2 ** 31 - 1;
const EMPTY_RESULT: ToolResult = { content: [{ type: 'text', text: '' }], isError: false };

/**
 * What `execute` returned, as an Observable of its result: a Promise's value, or an
 * Observable's last value — each of whose values is reported as progress when it is emitted.
 */
function returned(tool: AnyTool, value: unknown, ctx: CallContext): Observable<ToolResult> {
  if (isObservable(value)) return lastWithProgress(value, ctx).pipe(map((v) => toToolResult(tool, v)));
  if (isPromiseLike(value)) return from(value).pipe(map((v) => toToolResult(tool, v)));
  return of(toToolResult(tool, value));
}

/**
 * An Observable tool's last value (undefined when none). Every other value is reported as
 * progress when it is emitted: at once when the next value comes, else on the scheduler's next
 * tick unless the Observable completes first (then it is the result, not progress).
 */
function lastWithProgress(source: Observable<unknown>, ctx: CallContext): Observable<unknown> {
  return new Observable<unknown>((subscriber) => {
    let last: unknown;
    let pending: Subscription | undefined;
    const settlePending = (report: boolean) => {
      if (!pending) return;
      pending.unsubscribe();
      pending = undefined;
      if (report) ctx.progress(last);
    };
    // Chained to the subscriber before the source runs: a synchronous source (a sub-run on
    // synchronous models) cut off from inside its own emission stops at once, not when done.
    source.subscribe(
      chainedObserver<unknown>(subscriber, {
        next: (value) => {
          settlePending(true);
          last = value;
          pending = ctx.scheduler.schedule(() => {
            pending = undefined;
            ctx.progress(value);
          });
        },
        error: (error: unknown) => {
          settlePending(false);
          subscriber.error(error);
        },
        complete: () => {
          settlePending(false);
          subscriber.next(last);
          subscriber.complete();
        },
      }),
    );
    return () => settlePending(false);
  });
}

/**
 * Runs a tool's `execute` through the middlewares (first is outermost) under the call's
 * timeout (on the scheduler). Each middleware sees `next`'s whole stream, completion
 * included; the call's result is the last value of the outermost one. A synchronous tool
 * without middlewares is settled at once, with no Observable and no timer. Errors become
 * error results; `AgentStop` is passed on.
 *
 * @example
 * const outcome = executeTool({ ...call, args }, env);
 * if (isObservable(outcome)) outcome.subscribe(done); else done(outcome);
 */
export function executeTool(call: ToolCallPart, env: ExecuteToolEnv): CallSettled | Observable<CallSettled> {
  const { tool, ctx } = env;
  if (env.middlewares.length === 0) {
    let value: unknown;
    try {
      const execute = (): unknown => tool.execute(call.args, ctx);
      const scope = env.toolScope;
      value = scope
        ? scope({ runId: ctx.runId, toolCallId: call.id, toolName: call.name }, execute)
        : execute();
    } catch (error) {
      return failure(error);
    }
    if (isPromiseLike(value)) {
      env.onPromise?.();
      return promiseOutcome(value, call, env);
    }
    if (!isObservable(value)) {
      try {
        return fromResult(toToolResult(tool, value));
      } catch (error) {
        return failure(error);
      }
    }
    return withTimeout(call, env, settle(scoped(env, call, returned(tool, value, ctx))));
  }
  const inner = (c: ToolCallPart): Observable<ToolResult> =>
    defer(() => {
      const value = tool.execute(c.args, ctx);
      if (isPromiseLike(value)) env.onPromise?.();
      return returned(tool, value, ctx);
    });
  const chain = env.middlewares.reduceRight<(c: ToolCallPart) => Observable<ToolResult>>(
    (next, middleware) => (c) => defer(() => from(middleware(c, ctx, next))),
    inner,
  );
  return withTimeout(call, env, settle(scoped(env, call, chain(call))));
}

/**
 * A Promise tool's outcome under the call's timeout, as one Observable: the common tool, so its
 * path is one subscription and one timer (rather than `from`, `map`, `last`, `catchError` and
 * `timeout`); it settles as those would.
 */
function promiseOutcome(
  promise: PromiseLike<unknown>,
  call: ToolCallPart,
  env: ExecuteToolEnv,
): Observable<CallSettled> {
  return new Observable<CallSettled>((subscriber) => {
    const done = (outcome: () => CallSettled): void => {
      if (subscriber.closed) return;
      timer?.unsubscribe();
      let settled: CallSettled;
      try {
        settled = outcome();
      } catch (error) {
        settled = failure(error);
      }
      subscriber.next(settled);
      subscriber.complete();
    };
    const timer = hasTimeout(env.timeoutMs)
      ? env.scheduler.schedule(() => {
          env.onTimeout();
          subscriber.next(timedOut(call, env));
          subscriber.complete();
        }, env.timeoutMs)
      : undefined;
    promise.then(
      (value) => done(() => fromResult(toToolResult(env.tool, value))),
      (error: unknown) => done(() => failure(error)),
    );
    return () => timer?.unsubscribe();
  });
}

// Longer than a timer can wait (Node turns ≥ 2^31 ms into 1 ms): no timeout at all.
function hasTimeout(timeoutMs: number): boolean {
  return Number.isFinite(timeoutMs) && timeoutMs < MAX_TIMER_MS;
}

function timedOut(call: ToolCallPart, env: ExecuteToolEnv): CallSettled {
  const result = errorToolResult(`Tool "${call.name}" timed out after ${env.timeoutMs} ms.`);
  result.errorType = 'timeout';
  return settled(result, 'error');
}

/** The last result as a settled call (no value: an empty result); errors as error results. */
function settle(results: Observable<ToolResult>): Observable<CallSettled> {
  return results.pipe(
    last(undefined, EMPTY_RESULT),
    map(fromResult),
    catchError((error: unknown) => of(failure(error))),
  );
}

function withTimeout(
  call: ToolCallPart,
  env: ExecuteToolEnv,
  run$: Observable<CallSettled>,
): Observable<CallSettled> {
  if (!hasTimeout(env.timeoutMs)) return run$;
  return run$.pipe(
    timeout({
      first: env.timeoutMs,
      scheduler: env.scheduler,
      with: () => {
        env.onTimeout();
        return of(timedOut(call, env));
      },
    }),
  );
}
