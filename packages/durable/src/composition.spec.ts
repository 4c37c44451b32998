import type { AgentEvent } from '@rxagent/core';
import { DURABLE_CELLS } from './composition-cells.test.js';
import { durableTestbed, type WorkerProcess } from './durable-test-kit.test.js';

// The durable column of the composition test (issue 31): each capability in a real durable
// run on two workers, the first killed with SIGKILL mid-run (the second finishes the run).
// The cells are in composition-cells.test.ts; the other modes (runAgent, Agent, sub-run,
// proxy) are apps/composition, which checks that both tables name the same capabilities.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

it.each(Object.keys(DURABLE_CELLS))(
  '%s: durable on two workers, the first killed with SIGKILL mid-run',
  async (name) => {
    const cell = DURABLE_CELLS[name]!;
    const slug = name.replace(/\W+/g, '-');
    const settings = { toolDelayMs: 0, stepMs: 300, ...cell.worker };
    const a = await bed.worker(`${slug}-a`, settings);
    const id = await bed.runs.startRun({ ...cell.spec, runId: `cell-${slug}`, prompt: `Go (${slug}).` });
    const events: AgentEvent[] = [];
    let killed: Promise<WorkerProcess> | undefined;
    const acts: Promise<void>[] = [];
    await new Promise<void>((resolve, reject) =>
      bed.runs.watchRun(id).subscribe({
        next: (e) => {
          events.push(e);
          if (!killed && cell.killAt(e)) {
            killed = (async () => {
              const b = await bed.worker(`${slug}-b`, settings);
              await a.crash();
              return b;
            })();
          }
          if (cell.act) acts.push((killed ?? Promise.resolve()).then(() => cell.act?.(e, id, bed.runs)));
        },
        error: reject,
        complete: resolve,
      }),
    );
    await killed;
    await Promise.all(acts);
    expect(a.child.signalCode).toBe('SIGKILL');
    const result = await bed.runs.runResult(id);
    expect(result.reason).toBe(cell.reason ?? 'completed');
    cell.check(result, events);
  },
);
