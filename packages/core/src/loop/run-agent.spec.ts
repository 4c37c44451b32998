import { z } from 'zod';
import { collectEvents, eventTypes, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { runAgent } from './run-agent';
import { tool } from '../tools/tool';

const echo = tool({
  name: 'echo',
  description: 'Echo the text',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

describe('runAgent event order', () => {
  it('emits the documented order for a text-only run', async () => {
    const model = scriptedModel([textTurn('Hello there')]);
    const events = await collectEvents(runAgent({ model, prompt: 'hi', runId: 'r1' }));
    expect(eventTypes(events)).toEqual([
      'agent-start',
      'turn-start',
      'message-start:user',
      'message-end:user',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'turn-end',
      'agent-end',
    ]);
    const end = events[events.length - 1];
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 1 });
  });

  it('emits the documented order for a two-tool run', async () => {
    const model = scriptedModel([
      toolCallTurn([
        { name: 'echo', args: { text: 'a' }, id: 'c1' },
        { name: 'echo', args: { text: 'b' }, id: 'c2' },
      ]),
      textTurn('Done'),
    ]);
    const events = await collectEvents(runAgent({ model, tools: [echo], prompt: 'go', toolConcurrency: 1 }));
    expect(eventTypes(events)).toEqual([
      'agent-start',
      'turn-start',
      'message-start:user',
      'message-end:user',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'tool-start',
      'tool-end',
      'tool-start',
      'tool-end',
      'message-start:tool',
      'message-end:tool',
      'message-start:tool',
      'message-end:tool',
      'turn-end',
      'turn-start',
      'message-start:assistant',
      'message-update*',
      'message-end:assistant',
      'turn-end',
      'agent-end',
    ]);
  });
});
