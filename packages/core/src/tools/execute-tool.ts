import { defer, isObservable, map, Observable, race, timer, type SchedulerLike } from 'rxjs';
import { AgentStop } from '../errors/agent-stop.js';
import type { ToolResult } from '../events/agent-event.js';
import type { ToolCallPart } from '../messages/types.js';
import { isPromiseLike, toObservable } from '../util/to-observable.js';
import { settled, type CallSettled } from './call-settled.js';
import type { AnyTool, ToolContext } from './tool.js';
import type { ToolMiddleware } from './tool-hooks.js';
import { errorText, errorToolResult, toToolResult } from './tool-output.js';

/** What `executeTool` needs besides the call. */
export interface ExecuteToolEnv {
  tool: AnyTool;
  ctx: ToolContext;
  middlewares: readonly ToolMiddleware[];
  timeoutMs: number;
  scheduler: SchedulerLike;
  /** Called when the timeout fires (aborts the call's signal). */
  onTimeout(): void;
}

function failure(error: unknown): CallSettled {
  if (AgentStop.isInstance(error)) {
    return settled({ content: [{ type: 'text', text: error.reason }], isError: false }, 'success', error);
  }
  return settled(errorToolResult(errorText(error)), 'error');
}

const fromResult = (result: ToolResult): CallSettled => settled(result, result.isError ? 'error' : 'success');

/**
 * Runs a tool's `execute` through the middlewares (first is outermost) under the call's
 * timeout. A synchronous tool without middlewares returns its settled result at once, with no
 * Observable and no timer (the cheap common case); anything asynchronous is an Observable that
 * races a timer on the scheduler. Errors become error results; `AgentStop` is passed on.
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
      value = tool.execute(call.args, ctx);
    } catch (error) {
      return failure(error);
    }
    if (!isPromiseLike(value) && !isObservable(value)) {
      try {
        return fromResult(toToolResult(tool, value));
      } catch (error) {
        return failure(error);
      }
    }
    return withTimeout(
      call,
      env,
      settle(lastValueAsResult(toObservable(value), ctx).pipe(map((v) => toToolResult(tool, v)))),
    );
  }
  const inner = (c: ToolCallPart): Observable<ToolResult> =>
    defer(() => lastValueAsResult(toObservable(tool.execute(c.args, ctx)), ctx)).pipe(
      map((v) => toToolResult(tool, v)),
    );
  const chain = env.middlewares.reduceRight<(c: ToolCallPart) => Observable<ToolResult>>(
    (next, middleware) => (c) =>
      defer(() => toObservable(middleware(c, ctx, next) as Observable<ToolResult>)),
    inner,
  );
  return withTimeout(call, env, settle(chain(call)));
}

/** The first result as a settled call; errors as error results; no value as an empty result. */
function settle(results: Observable<ToolResult>): Observable<CallSettled> {
  return new Observable<CallSettled>((subscriber) => {
    let done = false;
    const sub = results.subscribe({
      next: (result) => {
        if (done) return;
        done = true;
        subscriber.next(fromResult(result));
        subscriber.complete();
      },
      error: (error: unknown) => {
        subscriber.next(failure(error));
        subscriber.complete();
      },
      complete: () => {
        if (!done)
          subscriber.next(settled({ content: [{ type: 'text', text: '' }], isError: false }, 'success'));
        subscriber.complete();
      },
    });
    return sub;
  });
}

function withTimeout(
  call: ToolCallPart,
  env: ExecuteToolEnv,
  run$: Observable<CallSettled>,
): Observable<CallSettled> {
  const timedOut$ = timer(env.timeoutMs, env.scheduler).pipe(
    map(() => {
      env.onTimeout();
      return settled(errorToolResult(`Tool "${call.name}" timed out after ${env.timeoutMs} ms.`), 'error');
    }),
  );
  return race(run$, timedOut$);
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
