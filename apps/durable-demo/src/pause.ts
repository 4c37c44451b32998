import type { ToolContext } from '@rxagent/core';
import { firstValueFrom, fromEvent, map, race, timer } from 'rxjs';

/**
 * Waits `ms` on the call's scheduler; resolves early when the call is aborted (the tool then
 * returns and the run ends it as aborted).
 *
 * @example
 * await pause(1200, ctx);
 */
export function pause(ms: number, ctx: Pick<ToolContext, 'scheduler' | 'signal'>): Promise<void> {
  if (ctx.signal.aborted) return Promise.resolve();
  return firstValueFrom(
    race(timer(ms, ctx.scheduler), fromEvent(ctx.signal, 'abort')).pipe(map(() => undefined)),
  );
}
