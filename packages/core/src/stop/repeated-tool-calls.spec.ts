import { z } from 'zod';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from '../tools/tool.js';
import { repeatedToolCalls } from './repeated-tool-calls.js';

const search = tool({
  name: 'search',
  description: 'Search',
  parameters: z.object({ q: z.string(), page: z.number().optional() }),
  execute: () => 'nothing found',
});

async function endOf(turns: Parameters<typeof scriptedModel>[0], times: number): Promise<AgentEndEvent> {
  const events = await collectEvents(
    runAgent({
      model: scriptedModel(turns),
      prompt: 'find',
      tools: [search],
      stopWhen: repeatedToolCalls(times),
    }),
  );
  return events.at(-1) as AgentEndEvent;
}

describe('repeatedToolCalls', () => {
  it('stops after the same call with the same arguments n times in a row, naming the call', async () => {
    const same = () => toolCallTurn({ name: 'search', args: { q: 'x', page: 1 } });
    const end = await endOf([same(), same(), same(), same(), textTurn('never')], 3);
    expect(end.steps).toBe(3);
    expect(end.reason).toBe('predicate');
    expect(end.signal).toEqual({
      reason: 'predicate',
      message: 'The model called "search" with the same arguments 3 times in a row.',
      context: { toolName: 'search', args: { q: 'x', page: 1 }, times: 3 },
      source: 'repeatedToolCalls',
    });
  });

  it('treats arguments with the same keys in another order as the same call', async () => {
    const end = await endOf(
      [
        toolCallTurn({ name: 'search', args: { q: 'x', page: 1 } }),
        toolCallTurn({ name: 'search', args: { page: 1, q: 'x' } }),
        textTurn('never'),
      ],
      2,
    );
    expect(end).toMatchObject({ reason: 'predicate', steps: 2, signal: { source: 'repeatedToolCalls' } });
  });

  it('counts repeated calls within one step too', async () => {
    const call = { name: 'search', args: { q: 'x' } };
    const end = await endOf([toolCallTurn([call, call]), textTurn('never')], 2);
    expect(end).toMatchObject({ reason: 'predicate', steps: 1 });
  });

  it('does not stop when the arguments change before n repeats', async () => {
    const end = await endOf(
      [
        toolCallTurn({ name: 'search', args: { q: 'x' } }),
        toolCallTurn({ name: 'search', args: { q: 'y' } }),
        toolCallTurn({ name: 'search', args: { q: 'y' } }, { text: 'again' }),
        toolCallTurn({ name: 'search', args: { q: 'z' } }),
        textTurn('Found nothing.'),
      ],
      3,
    );
    expect(end).toMatchObject({ reason: 'completed', steps: 5 });
  });

  it('refuses a count below 2 with a typed error', () => {
    expect(() => repeatedToolCalls(1)).toThrow(AgentConfigError);
    expect(() => repeatedToolCalls(2.5)).toThrow('at least 2');
  });
});
