import { z } from 'zod';
import { assistantMessage, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { userMessage } from '../messages/message-helpers.js';
import type { AgentMessage } from '../messages/types.js';
import { transcriptLog } from '../state/transcript-log.js';
import { tool } from '../tools/tool.js';
import { AppendLog } from '../util/append-log.js';
import { Agent } from './agent.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });

afterEach(() => jest.restoreAllMocks());

describe('Agent: cancelling from a listener during agent-start', () => {
  it.each([
    ['abort({ silent: true })', (agent: Agent) => agent.abort({ silent: true }), 'cancelled'],
    ['reset()', (agent: Agent) => agent.reset(), 'starting'],
  ])(
    '%s stops the run: no model call, prompt() resolves, no event after it',
    async (_name, cancel, phase) => {
      for (const latency of [0, 5]) {
        const model = scriptedModel([textTurn('never')], { latency });
        const agent = new Agent({ model });
        const after: string[] = [];
        let cancelled = false;
        agent.subscribe((event) => {
          if (cancelled) after.push(event.type);
          if (event.type !== 'agent-start') return;
          cancelled = true;
          cancel(agent);
        });
        const result = await agent.prompt('hi');
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(result.reason).toBe('user-requested');
        expect(model.calls).toBe(0);
        expect(after).toEqual([]);
        expect(agent.isRunning).toBe(false);
        expect(agent.state$.value.phase).toBe(phase);
      }
    },
  );

  it('keeps the agent usable: the next prompt runs', async () => {
    const model = scriptedModel([textTurn('second')]);
    const agent = new Agent({ model });
    const stop = agent.subscribe((event) => event.type === 'agent-start' && agent.abort({ silent: true }));
    await agent.prompt('first');
    stop();
    expect(agent.state$.value.phase).toBe('cancelled');
    await agent.prompt('again');
    expect(model.calls).toBe(1);
    expect(agent.state$.value.phase).toBe('done');
    // The first prompt had not entered the transcript when the run was cancelled.
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});

describe('Agent: the shared fold', () => {
  it('starts from the configured transcript and reports each run’s terminal phase', async () => {
    const prior: AgentMessage[] = [
      userMessage('earlier', 0),
      assistantMessage([{ type: 'text', text: 'hi' }]),
    ];
    const agent = new Agent({ model: scriptedModel([textTurn('again')]), messages: prior });
    const phases: string[] = [];
    agent.state$.subscribe((s) => phases.at(-1) !== s.phase && phases.push(s.phase));
    const result = await agent.prompt('more');
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(phases.at(-1)).toBe('done');
  });

  it('copies the transcript a fixed number of times per run, however many steps it has', async () => {
    const copiesFor = async (steps: number) => {
      const model = scriptedModel([
        ...Array.from({ length: steps - 1 }, (_, i) => toolCallTurn({ name: 'echo', id: `c${i}` })),
        textTurn('done'),
      ]);
      const agent = new Agent({ model, tools: [echo], maxSteps: steps });
      const of = jest.spyOn(AppendLog, 'of');
      await agent.prompt('go');
      expect(agent.state$.value).toMatchObject({ phase: 'done', step: steps });
      expect(agent.messages).toHaveLength(2 * steps);
      expect(transcriptLog(agent.messages)).toBeDefined(); // a view on an append-only log
      const copies = of.mock.calls.length;
      of.mockRestore();
      return copies;
    };
    expect(await copiesFor(300)).toBe(await copiesFor(30));
  });
});
