import type { VirtualTimeScheduler } from 'rxjs';

const macrotask = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Drives a `VirtualTimeScheduler` one due frame at a time, letting promises settle between
 * frames, so tools and approvers that return Promises work in virtual time too. Stops when
 * `done()` is true or nothing is scheduled any more; returns how many frames it ran.
 *
 * @example
 * const scheduler = new VirtualTimeScheduler();
 * runAgent({ model, prompt, scheduler }).subscribe(…);
 * await driveVirtualTime(scheduler, () => ended);
 */
export async function driveVirtualTime(
  scheduler: VirtualTimeScheduler,
  done: () => boolean = () => false,
  maxFrames = 100_000,
): Promise<number> {
  for (let frames = 0; frames < maxFrames; frames++) {
    await macrotask();
    if (done()) return frames;
    const next = scheduler.actions[0];
    if (!next) return frames;
    scheduler.maxFrames = next.delay;
    scheduler.flush();
  }
  throw new Error(`Virtual time did not settle after ${maxFrames} frames: something reschedules forever.`);
}

/**
 * Lets pending promise callbacks and immediates run.
 *
 * @example
 * await settle();
 */
export function settle(): Promise<void> {
  return macrotask();
}

/**
 * Waits for real timers due now: RxJS reports unhandled errors on a `setTimeout(0)`.
 *
 * @example
 * await flushReports();
 * expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
 */
export async function flushReports(): Promise<void> {
  await new Promise<void>((resolve) => setTimeout(resolve, 1));
  await macrotask();
}
