import type { RunResult } from '@rxagent/core/streams';
import { appendedLines, durableTestbed, type WorkerProcess } from './durable-test-kit.test.js';

// 100 runs over 3 worker processes while workers are killed with SIGKILL at random moments (a
// seeded random, so a failure can be replayed) and replaced by new ones.

jest.setTimeout(180_000);

const bed = durableTestbed({ pollIntervalMs: 200 });

/** A small seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

it('completes 100 runs over 3 workers with random kills: no run lost, no tool effect twice', async () => {
  let next = 0;
  const start = () => bed.worker(`many-${next++}`, { lines: 2, latencyMs: 5, toolDelayMs: 30, perWorker: 6 });
  let alive: WorkerProcess[] = await Promise.all([start(), start(), start()]);
  const ids = await Promise.all(
    Array.from({ length: 100 }, (_, i) =>
      bed.runs.startRun({
        runId: `many-${i}`,
        model: 'plan-keyed',
        tools: ['keyed_append'],
        prompt: `Append the lines (many-${i}).`,
      }),
    ),
  );
  let settled = false;
  const results = Promise.all(ids.map((id) => bed.runs.runResult(id))).finally(() => (settled = true));
  const random = seeded(19);
  let kills = 0;
  while (!settled && kills < 6) {
    await Promise.race([
      results.catch(() => undefined),
      new Promise((r) => setTimeout(r, 600 + random() * 900)),
    ]);
    if (settled) break;
    const victim = alive[Math.floor(random() * alive.length)] as WorkerProcess;
    alive = alive.filter((w) => w !== victim);
    await victim.crash();
    kills++;
    alive.push(await start());
  }
  const done: RunResult[] = await results;
  expect(kills).toBeGreaterThanOrEqual(1);
  expect(done).toHaveLength(100);
  expect(done.map((r) => r.reason)).toEqual(Array.from({ length: 100 }, () => 'completed'));
  // Every call's line exactly once: the tool is idempotent by its key, and every call ran.
  const lines = appendedLines(bed.file);
  const keys = lines.map((l) => l.split(' ')[0]);
  expect(new Set(keys).size).toBe(keys.length);
  expect(keys.sort()).toEqual(ids.flatMap((id) => [`${id}:call_1`, `${id}:call_2`]).sort());
});
