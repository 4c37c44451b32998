import { VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import type { WarningEvent } from '../events/agent-event.js';

/**
 * True when the scheduler keeps virtual time: a `VirtualTimeScheduler` (a `TestScheduler`), or
 * a clock far before any real date — `TestScheduler.run` makes the default schedulers count
 * frames from 0, while a real clock is in epoch milliseconds.
 */
export function isVirtualTime(scheduler: SchedulerLike): boolean {
  return scheduler instanceof VirtualTimeScheduler || scheduler.now() < 1e11;
}

/**
 * The warning for a tool that returned a Promise under virtual time (the caller gives it once
 * a run): the Promise settles outside virtual time, so the call would only time out, silently,
 * after its timeout in virtual time.
 */
export function promiseToolWarning(scheduler: SchedulerLike, toolName: string): WarningEvent | undefined {
  if (!isVirtualTime(scheduler)) return undefined;
  return {
    type: 'warning',
    message:
      `Tool "${toolName}" returned a Promise under a virtual-time scheduler: a Promise settles outside virtual time, ` +
      'so the call can only time out. Return an Observable on ctx.scheduler instead (virtualTool / scheduledTool ' +
      'from @rxagent/testing), or run this test in real time.',
  };
}
