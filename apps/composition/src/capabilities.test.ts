import { assistantText, tokenBudget, type AgentEvent } from '@rxagent/core';
import { subagentTool } from '@rxagent/subagents';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { z } from 'zod';
import type { Capability, CapabilityName } from './cell-types.test.js';
import { guardedTool, keepLastTwo, latchTool, roles, stepTool, toolResultText } from './cell-tools.test.js';

// The capability table of the composition test: each capability once, for every mode (the
// modes only say how to run a cell: modes.test.ts).

const usage = { inputTokens: 100, outputTokens: 10 };
const indexes = (events: readonly AgentEvent[], type: AgentEvent['type']) =>
  events.flatMap((e, i) => (e.type === type ? [i] : []));

/** Every capability, by name. */
export const CAPABILITIES: Record<CapabilityName, Capability> = {
  'tools in parallel': {
    turns: () => [
      toolCallTurn([1, 2, 3].map((n) => ({ name: 'step', args: { n }, id: `p${n}` }))),
      textTurn('All three done.'),
    ],
    // The latch ends no call before all three started; one at a time, the first times out.
    config: () => ({ tools: [latchTool(3)], toolConcurrency: 3, toolTimeoutMs: 20_000 }),
    check: ({ events, messages }) => {
      const starts = indexes(events, 'tool-start');
      const ends = indexes(events, 'tool-end');
      expect(starts).toHaveLength(3);
      expect(Math.max(...starts)).toBeLessThan(Math.min(...ends));
      expect(['p1', 'p2', 'p3'].map((id) => toolResultText(messages, id))).toEqual([
        'step 1 done',
        'step 2 done',
        'step 3 done',
      ]);
    },
  },
  approval: {
    turns: () => [toolCallTurn({ name: 'guarded', args: { n: 1 }, id: 'a1' }), textTurn('Approved.')],
    config: () => ({ tools: [guardedTool()] }),
    approve: true,
    check: ({ events, messages }) => {
      const types = events.map((e) => e.type);
      expect(types.indexOf('approval-request')).toBeGreaterThanOrEqual(0);
      expect(types.indexOf('approval-request')).toBeLessThan(types.indexOf('approval-end'));
      expect(events.find((e) => e.type === 'approval-end')).toMatchObject({ approved: true });
      expect(toolResultText(messages, 'a1')).toBe('step 1 done');
    },
  },
  steering: {
    turns: () => [toolCallTurn({ name: 'step', args: { n: 1 }, id: 's1' }), textTurn('Steered answer.')],
    config: () => ({ tools: [stepTool()] }),
    steer: { at: (e) => e.type === 'tool-start', text: 'Steered.' },
    check: ({ messages, requests }) => {
      // Taken at the end of the step: after the tool's result, before the next model call.
      expect(roles(messages).slice(1)).toEqual(['assistant', 'tool', 'user:Steered.', 'assistant']);
      expect(roles(requests[1]?.messages ?? []).at(-1)).toBe('user:Steered.');
    },
  },
  'follow-up': {
    turns: () => [textTurn('First answer.'), textTurn('Second answer.')],
    followUp: 'And then?',
    check: ({ messages, requests }) => {
      expect(roles(messages).slice(1)).toEqual(['assistant', 'user:And then?', 'assistant']);
      expect(requests).toHaveLength(2);
      expect(assistantText(messages.at(-1))).toBe('Second answer.');
    },
  },
  'guardrail trip': {
    turns: () => [textTurn('The secret is 42.')],
    config: () => ({
      outputGuardrails: [
        {
          name: 'no-secrets',
          check: (output) =>
            output.text.includes('secret')
              ? { tripped: true, reason: 'The answer mentions a secret.' }
              : { tripped: false },
        },
      ],
    }),
    reason: 'guardrail',
    check: ({ events }) =>
      expect(events.filter((e) => e.type === 'guardrail-end')).toEqual([
        expect.objectContaining({ guardrail: 'no-secrets', kind: 'output', outcome: 'tripped' }),
      ]),
  },
  compaction: {
    turns: () => [
      toolCallTurn({ name: 'step', args: { n: 1 }, id: 'c1' }),
      toolCallTurn({ name: 'step', args: { n: 2 }, id: 'c2' }),
      textTurn('Compacted.'),
    ],
    config: () => ({ tools: [stepTool()], contextManager: keepLastTwo() }),
    check: ({ events, messages, requests }) => {
      expect(events.filter((e) => e.type === 'compaction').length).toBeGreaterThan(0);
      // The last call saw the summary and the last two messages, not the 5 before it.
      expect(messages).toHaveLength(6);
      expect(roles(requests[2]?.messages ?? [])).toEqual([
        'user:Summary of steps 1 to 2.',
        'assistant',
        'tool',
      ]);
    },
  },
  'structured output': {
    turns: () => [textTurn('{"city":"Paris","tempC":21}')],
    config: () => ({ output: z.object({ city: z.string(), tempC: z.number() }), outputMode: 'native' }),
    check: ({ output }) => expect(output).toEqual({ city: 'Paris', tempC: 21 }),
  },
  'sub-agent': {
    turns: () => [
      toolCallTurn({ name: 'subagent', args: { agent: 'helper', task: 'Say hi.' }, id: 'd1' }, { usage }),
      textTurn('The helper said hi.', { usage }),
    ],
    config: () => ({
      tools: [
        subagentTool({
          agents: {
            helper: {
              description: 'Says hi',
              model: scriptedModel([
                textTurn('Hi from the helper.', { usage: { inputTokens: 500, outputTokens: 50 } }),
              ]),
            },
          },
          // A sub-run may start it too (the sub-run column).
          maxDepth: 2,
        }),
      ],
    }),
    check: ({ events, messages, usage: spent }) => {
      const helper = events.filter((e) => e.type === 'subrun' && e.path[0]?.agent === 'helper');
      expect(helper.map((e) => e.type === 'subrun' && e.event.type)).toContain('agent-end');
      expect(toolResultText(messages, 'd1')).toBe('Hi from the helper.');
      // Its spending is the run's: two calls of its own and the helper's one.
      expect(spent).toMatchObject({ inputTokens: 700, outputTokens: 70 });
    },
  },
  'budget stop': {
    turns: () => [1, 2, 3].map((n) => toolCallTurn({ name: 'step', args: { n }, id: `b${n}` }, { usage })),
    // 110 tokens a call: over 150 after the second.
    config: () => ({ tools: [stepTool()], stopWhen: tokenBudget(150) }),
    reason: 'token-limit',
    check: ({ requests, usage: spent }) => {
      expect(requests).toHaveLength(2);
      expect(spent.totalTokens).toBe(220);
    },
  },
  'MCP tool': {
    turns: () => [toolCallTurn({ name: 'get-sum', args: { a: 20, b: 22 }, id: 'm1' }), textTurn('It is 42.')],
    config: (env) => ({ tools: env.mcpTools }),
    check: ({ messages, requests }) => {
      expect(toolResultText(messages, 'm1')).toBe('The sum of 20 and 22 is 42.');
      expect(toolResultText(requests[1]?.messages ?? [], 'm1')).toBe('The sum of 20 and 22 is 42.');
    },
  },
};
