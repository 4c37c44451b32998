import { AgentConfigError, tool, type Tool, type ToolContext, type ToolDefinition } from '@rxagent/core';
import type { InferToolArgs, ToolParameters } from '@rxagent/core/provider';
import { concatMap, defer, isObservable, map, of, timer, type Observable } from 'rxjs';

/**
 * A latency: milliseconds, or a string like `'300ms'`, `'2s'`, `'1.5m'`.
 *
 * @example
 * const latency: Latency = '300ms';
 */
export type Latency = number | `${number}ms` | `${number}s` | `${number}m`;

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000 };

/**
 * The latency in milliseconds; throws `AgentConfigError` for anything else.
 *
 * @example
 * latencyMs('1.5s'); // 1500
 */
export function latencyMs(latency: Latency): number {
  if (typeof latency === 'number' && latency >= 0 && Number.isFinite(latency)) return latency;
  const match = typeof latency === 'string' ? /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(latency.trim()) : null;
  if (!match) {
    throw new AgentConfigError(
      `Invalid latency ${JSON.stringify(latency)}: give milliseconds (300) or a string like '300ms', '2s' or '1m'.`,
    );
  }
  return Number(match[1]) * (UNITS[match[2] as string] as number);
}

/**
 * The definition of a `virtualTool`: a tool's, with a synchronous (or Observable) `execute`
 * and the time it takes.
 *
 * @example
 * const def: VirtualToolDefinition<typeof parameters, string> = { name: 'search', description: 'Search',
 *   parameters, latency: '300ms', execute: ({ q }) => `results for ${q}` };
 */
export type VirtualToolDefinition<P extends ToolParameters<unknown>, R> = Omit<
  ToolDefinition<P, R>,
  'execute'
> & {
  /** How long each call takes, on the run's scheduler (virtual time under a TestScheduler). */
  latency: Latency;
  /** The result, computed when the latency has passed (a value or an Observable, no Promise:
   * a Promise settles outside virtual time). */
  execute(args: InferToolArgs<P>, ctx: ToolContext): R | Observable<R>;
};

/**
 * A tool whose latency runs on the run's scheduler, so a run that calls it is a marble test:
 * the result comes `latency` after the call, in virtual time under `TestScheduler.run`, and is
 * cancelled with the run. (An `async` tool cannot be: its Promise settles outside virtual
 * time, and the call times out after 30 virtual seconds.)
 *
 * @param definition A tool definition with `latency` and a synchronous `execute`.
 * @return The tool.
 *
 * @example
 * const search = virtualTool({
 *   name: 'search', description: 'Search the docs', parameters: z.object({ q: z.string() }),
 *   latency: '300ms', execute: ({ q }) => `3 results for ${q}`,
 * });
 * createTestScheduler().run(({ expectObservable }) => {
 *   expectObservable(runAgent({ model, tools: [search], prompt: 'go' }).pipe(toMarbleLetters())).toBe(expected);
 * });
 */
export function virtualTool<P extends ToolParameters<unknown>, R>(
  definition: VirtualToolDefinition<P, R>,
): Tool<InferToolArgs<P>, R> {
  const ms = latencyMs(definition.latency);
  const { latency: _latency, ...rest } = definition;
  return tool<P, R>({
    ...rest,
    execute: (args, ctx) =>
      timer(ms, ctx.scheduler).pipe(
        concatMap(() => {
          const value = definition.execute(args, ctx);
          return isObservable(value) ? value : of(value);
        }),
      ),
  });
}

/**
 * Turns an existing tool into one whose result comes `latency` later on the run's scheduler,
 * computed by `result` (synchronous: virtual time cannot wait for a Promise) — e.g. to test a
 * run that uses a real, `async` tool in virtual time.
 *
 * @example
 * const fakeFetch = scheduledTool(fetchTool, '1s', ({ url }) => `<html>${url}</html>`);
 */
export function scheduledTool<A, R>(
  original: Tool<A, R>,
  latency: Latency,
  result: (args: A, ctx: ToolContext) => R,
): Tool<A, R> {
  const ms = latencyMs(latency);
  return {
    ...original,
    execute: (args: A, ctx: ToolContext) =>
      defer(() => timer(ms, ctx.scheduler).pipe(map(() => result(args, ctx)))),
  };
}
