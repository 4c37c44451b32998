import type { AgentEvent } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import type { DurableRunSpec, DurableRuns } from '@rxagent/durable';
import type { WorkerSettings } from './durable-test-kit.test.js';

// The durable column's cells (composition.spec.ts runs them): the same capability names as the
// other columns (apps/composition), each a run spec naming what the workers registered.

/** One durable cell. */
export interface DurableCell {
  spec: Omit<DurableRunSpec, 'runId' | 'prompt'>;
  /** The event at which the worker running the run is killed. */
  killAt: (e: AgentEvent) => boolean;
  /** Called for each event after the kill decision (decide approvals, steer…). */
  act?: (e: AgentEvent, runId: string, runs: DurableRuns) => Promise<void>;
  check: (result: RunResult, events: AgentEvent[]) => void;
  /** The stop reason (default `completed`). */
  reason?: string;
  /** Settings of both workers (tool delays, the MCP server). */
  worker?: Partial<WorkerSettings>;
}

const atApproval = (e: AgentEvent) => e.type === 'approval-request';
const approve = async (e: AgentEvent, runId: string, runs: DurableRuns) => {
  if (e.type === 'approval-request') expect(await runs.approve(runId, e.toolCallId)).toBe(true);
};
const gated = { model: 'plan-approval', tools: ['keyed_append', 'guarded_append'] };
const users = (r: RunResult) =>
  r.messages.flatMap((m) => (m.role === 'user' && typeof m.content === 'string' ? [m.content] : []));
const toolText = (r: RunResult, toolCallId: string) =>
  r.messages.flatMap((m) =>
    m.role === 'tool' && m.toolCallId === toolCallId
      ? m.content.map((p) => (p.type === 'text' ? p.text : `<${p.type}>`))
      : [],
  );

/** The durable column, by capability. */
export const DURABLE_CELLS: Record<string, DurableCell> = {
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
    act: async (e, runId, runs) => {
      if (e.type === 'approval-request') expect(await runs.steer(runId, 'Steered.')).toBe(true);
      await approve(e, runId, runs);
    },
    check: (r) => {
      // Taken at the end of the step: after its tool result, before the next model call.
      const at = r.messages.findIndex((m) => m.role === 'user' && m.content === 'Steered.');
      expect(r.messages[at - 1]?.role).toBe('tool');
      expect(r.messages[at + 1]?.role).toBe('assistant');
    },
  },
  'follow-up': {
    spec: gated,
    killAt: atApproval,
    act: async (e, runId, runs) => {
      if (e.type === 'approval-request') expect(await runs.followUp(runId, 'And then?')).toBe(true);
      await approve(e, runId, runs);
    },
    check: (r) => {
      expect(users(r).at(-1)).toBe('And then?');
      expect(r.messages.at(-1)?.role).toBe('assistant');
    },
  },
  'guardrail trip': {
    spec: { ...gated, outputGuardrails: ['no-done'] },
    killAt: atApproval,
    act: approve,
    reason: 'guardrail',
    check: (_r, events) =>
      expect(events.filter((e) => e.type === 'guardrail-end' && e.outcome === 'tripped')).toHaveLength(1),
  },
  compaction: {
    spec: { ...gated, contextManager: 'trim' },
    killAt: atApproval,
    act: approve,
    check: (_r, events) => expect(events.filter((e) => e.type === 'compaction').length).toBeGreaterThan(0),
  },
  'structured output': {
    spec: { ...gated, model: 'plan-approval-json', output: 'weather', outputMode: 'native' },
    killAt: atApproval,
    act: approve,
    check: (r) => expect(r.output).toEqual({ city: 'Paris', tempC: 21 }),
  },
  'sub-agent': {
    spec: { model: 'delegate', tools: ['helper'] },
    worker: { toolDelayMs: 400 },
    killAt: (e) => e.type === 'subrun' && e.event.type === 'tool-start' && e.event.toolCallId === 'call_2',
    check: (r, events) => {
      expect(r.text).toBe('The helper said: Done: 3 lines appended.');
      expect(events.filter((e) => e.type === 'subrun' && e.event.type === 'agent-end')).toHaveLength(1);
      // 2 × 1000 of the parent's own, 100 + 101 + 102 + 103 of the child's.
      expect(r.usage.inputTokens).toBe(2406);
    },
  },
  'budget stop': {
    spec: { ...gated, budget: { maxTokens: 250 } },
    killAt: atApproval,
    act: approve,
    reason: 'token-limit',
    // 110 tokens or so a model call: the third passes 250.
    check: (r) => expect(r.messages.filter((m) => m.role === 'assistant')).toHaveLength(3),
  },
  // get-sum of a real MCP server (server-everything over stdio, started by each worker and
  // registered by name), approval first: the first worker is killed while the run waits, the
  // second makes the call.
  'MCP tool': {
    spec: { model: 'mcp-sum', tools: ['get-sum'] },
    worker: { mcp: true },
    killAt: atApproval,
    act: approve,
    check: (r) => {
      expect(toolText(r, 'call_1')).toEqual(['The sum of 20 and 22 is 42.']);
      expect(r.text).toBe('The server said: The sum of 20 and 22 is 42.');
    },
  },
};
