import { z } from 'zod';
import { collectEvents, scriptedModel, textTurn, toolCallTurn, usage } from '@rxagent/testing';
import { Agent } from '../agent/agent.js';
import type { AgentEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from './tool.js';

// A tool that spent model tokens on the call's behalf (a sub-agent) reports them with its result.
const delegate = tool({
  name: 'delegate',
  description: 'Ask a helper model',
  parameters: z.object({}),
  execute: () => ({
    content: [{ type: 'text' as const, text: 'helped' }],
    usage: usage({ inputTokens: 50, outputTokens: 5, costUsd: 0.5 }),
  }),
});

const model = () =>
  scriptedModel([
    toolCallTurn(
      { name: 'delegate', args: {} },
      { usage: { inputTokens: 10, outputTokens: 1, costUsd: 0.01 } },
    ),
    textTurn('Done.', { usage: { inputTokens: 20, outputTokens: 2, costUsd: 0.02 } }),
  ]);

describe('usage reported by a tool result', () => {
  it('is kept on the tool message and counted in the run, the state fold and the Agent', async () => {
    const events = await collectEvents(runAgent({ model: model(), tools: [delegate], prompt: 'Go' }));
    const end = events.at(-1) as AgentEndEvent;
    expect(end.usage).toMatchObject({ inputTokens: 80, outputTokens: 8, totalTokens: 88 });
    // Priced model calls and the tool's priced usage add up (an unpriced part would make it unknown).
    expect(end.usage.costUsd).toBeCloseTo(0.53, 10);
    expect(end.messages.find((m) => m.role === 'tool')).toMatchObject({ usage: { totalTokens: 55 } });
    // Per-step usage stays the model's own.
    const steps = events.flatMap((e) => (e.type === 'turn-end' ? [e.step.usage.totalTokens] : []));
    expect(steps).toEqual([11, 22]);

    const agent = new Agent({ model: model(), tools: [delegate] });
    const result = await agent.prompt('Go');
    expect(result.usage.totalTokens).toBe(88);
    expect(agent.usage.totalTokens).toBe(88);
  });
});
