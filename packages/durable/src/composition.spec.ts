import type { AgentEvent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import type { DurableRunSpec } from '@rxagent/durable';
import { durableTestbed, type WorkerProcess } from './durable-test-kit.test.js';

// The durable column of the composition test (issue 31): each capability in a real durable
// run on two workers, the first killed with SIGKILL mid-run (the second finishes the run).
// The other modes (runAgent, Agent, sub-run, proxy) are not in this file.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

interface Cell {
  spec: Omit<DurableRunSpec, 'runId' | 'prompt'>;
  /** The event at which the worker running the run is killed. */
  killAt: (e: AgentEvent) => boolean;
  /** Called for each event after the kill decision (decide approvals, steer…). */
  act?: (e: AgentEvent, runId: string) => Promise<void>;
  check: (result: RunResult, events: AgentEvent[]) => void;
  toolDelayMs?: number;
}

const atApproval = (e: AgentEvent) => e.type === 'approval-request';
const approve = async (e: AgentEvent, runId: string) => {
  if (e.type === 'approval-request') expect(await bed.runs.approve(runId, e.toolCallId)).toBe(true);
};
const gated = { model: 'plan-approval', tools: ['keyed_append', 'guarded_append'] };
const users = (r: RunResult) =>
  r.messages.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []));

const CELLS: Record<string, Cell> = {
  'tools in parallel': {
    spec: { model: 'parallel', tools: ['slow_step'], toolConcurrency: 4 },
    killAt: (e) => e.type === 'tool-end' && e.toolCallId === 'b1_3',
    check: (r) => expect(r.messages.filter((m) => m.role === 'tool')).toHaveLength(8),
  },
  approval: {
    spec: gated,
    killAt: atApproval,
    act: approve,
    check: (r, events) =>
      expect(events.filter((e) => e.type === 'approval-end' && e.approved)).toHaveLength(1),
  },
  steering: {
    spec: gated,
    killAt: atApproval,
    act: async (e, runId) => {
      if (e.type === 'approval-request') expect(await bed.runs.steer(runId, 'Steered.')).toBe(true);
      await approve(e, runId);
    },
    check: (r) => expect(users(r)).toContain('Steered.'),
  },
  'follow-up': {
    spec: gated,
    killAt: atApproval,
    act: async (e, runId) => {
      if (e.type === 'approval-request') expect(await bed.runs.followUp(runId, 'And then?')).toBe(true);
      await approve(e, runId);
    },
    check: (r) => expect(users(r).at(-1)).toBe('And then?'),
  },
  'guardrail trip': {
    spec: { ...gated, outputGuardrails: ['no-done'] },
    killAt: atApproval,
    act: approve,
    check: (r) => expect(r.reason).toBe('guardrail'),
  },
  compaction: {
    spec: { ...gated, contextManager: 'trim' },
    killAt: atApproval,
    act: approve,
    check: (r, events) => expect(events.filter((e) => e.type === 'compaction').length).toBeGreaterThan(0),
  },
  'structured output': {
    spec: { ...gated, model: 'plan-approval-json', output: 'weather', outputMode: 'native' },
    killAt: atApproval,
    act: approve,
    check: (r) => expect(r.output).toEqual({ city: 'Paris', tempC: 21 }),
  },
  'sub-agent': {
    spec: { model: 'delegate', tools: ['helper'] },
    toolDelayMs: 400,
    killAt: (e) => e.type === 'subrun' && e.event.type === 'tool-start' && e.event.toolCallId === 'call_2',
    check: (r) => expect(r.text).toBe('The helper said: Done: 3 lines appended.'),
  },
  'budget stop': {
    spec: { ...gated, budget: { maxTokens: 250 } },
    killAt: atApproval,
    act: approve,
    check: (r) => expect(r.reason).toBe('token-limit'),
  },
};

const EXPECTED_REASON: Record<string, string> = {
  'guardrail trip': 'guardrail',
  'budget stop': 'token-limit',
};

it.each(Object.keys(CELLS))(
  '%s: durable on two workers, the first killed with SIGKILL mid-run',
  async (name) => {
    const cell = CELLS[name]!;
    const slug = name.replace(/\W+/g, '-');
    const a = await bed.worker(`${slug}-a`, { toolDelayMs: cell.toolDelayMs ?? 0, stepMs: 300 });
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
              const b = await bed.worker(`${slug}-b`, { toolDelayMs: cell.toolDelayMs ?? 0, stepMs: 300 });
              await a.crash();
              return b;
            })();
          }
          if (cell.act) acts.push((killed ?? Promise.resolve()).then(() => cell.act?.(e, id)));
        },
        error: reject,
        complete: resolve,
      }),
    );
    await killed;
    await Promise.all(acts);
    expect(a.child.signalCode).toBe('SIGKILL');
    const result = await bed.runs.runResult(id);
    expect(result.reason).toBe(EXPECTED_REASON[name] ?? 'completed');
    cell.check(result, events);
  },
);
