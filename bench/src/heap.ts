import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let cached: (() => void) | undefined;

/**
 * A full garbage collection function: `global.gc` when node runs with `--expose-gc`, else one
 * obtained by turning the flag on at run time (so the memory benchmark also works under jest).
 *
 * @example
 * collectGarbage()(); // a full GC
 */
export function collectGarbage(): () => void {
  if (cached) return cached;
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === 'function') {
    cached = exposed;
    return cached;
  }
  setFlagsFromString('--expose-gc');
  cached = runInNewContext('gc') as () => void;
  return cached;
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The heap in use after several full collections, with event-loop turns between them so
 * finalizers and weak references are cleared before reading.
 *
 * @example
 * const before = await settledHeapBytes();
 */
export async function settledHeapBytes(rounds = 4): Promise<number> {
  const gc = collectGarbage();
  for (let i = 0; i < rounds; i++) {
    gc();
    await tick();
  }
  gc();
  return process.memoryUsage().heapUsed;
}

/**
 * How many active timers (`Timeout`) and other handles the process holds, by kind.
 *
 * @example
 * activeResources().Timeout ?? 0;
 */
export function activeResources(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}
