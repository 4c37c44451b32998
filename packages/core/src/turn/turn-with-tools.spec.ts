import { map } from 'rxjs';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { z } from 'zod';
import { AgentConfigError } from '../errors/agent-errors.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { tool } from '../tools/tool.js';
import { isTurn } from './loop-item.js';
import { runAgent } from '../loop/run-agent.js';

const echo = tool({
  name: 'echo',
  description: 'Echo',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const shout = tool({
  name: 'shout',
  description: 'Shout',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text.toUpperCase(),
});

describe('Turn.withTools', () => {
  it('offers and runs the new tools from that turn on, and the later turns keep them', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'shout', args: { text: 'hi' } }),
      toolCallTurn({ name: 'echo', args: { text: 'hi' } }),
      textTurn('done'),
    ]);
    const events = await collectEvents(
      runAgent({
        model,
        prompt: 'go',
        tools: [echo],
        pipeline: (turn$) =>
          turn$.pipe(
            map((item) => (isTurn(item) && item.step === 1 ? item.withTools([shout]) : item)),
            llmStep(),
            executeTools(),
          ),
      }),
    );
    expect(model.requests.map((r) => r.tools?.map((t) => t.name))).toEqual([['shout'], ['shout'], ['shout']]);
    const ends = events.filter((e) => e.type === 'tool-end');
    expect(ends.map((e) => [e.toolName, e.isError])).toEqual([
      ['shout', false],
      ['echo', true],
    ]);
  });

  it('refuses two tools of one name with a typed error', async () => {
    const model = scriptedModel([textTurn('done')]);
    const run$ = runAgent({
      model,
      prompt: 'go',
      pipeline: (turn$) =>
        turn$.pipe(
          map((item) => (isTurn(item) ? item.withTools([echo, echo]) : item)),
          llmStep(),
        ),
    });
    await expect(collectEvents(run$)).rejects.toThrow(AgentConfigError);
  });
});
