import { NEVER } from 'rxjs';
import { scriptedModel, textTurn } from '@rxagent/testing';
import type { ChatModel } from '../model/chat-model.js';
import { Agent } from './agent.js';

describe('Agent.own / reset / dispose', () => {
  it('tells owned resources of reset() and dispose(), isolating one that throws', () => {
    const errors: string[] = [];
    const agent = new Agent({ model: scriptedModel([]), onError: (_e, context) => errors.push(context) });
    const calls: string[] = [];
    agent.own({ reset: () => calls.push('a.reset'), dispose: () => calls.push('a.dispose') });
    agent.own({
      reset: () => {
        throw new Error('boom');
      },
    });
    const disown = agent.own({ reset: () => calls.push('c.reset') });
    agent.reset();
    disown();
    agent.reset();
    agent.dispose();
    expect(calls).toEqual(['a.reset', 'c.reset', 'a.reset', 'a.dispose']);
    expect(errors).toEqual(['reset(): an owned resource failed', 'reset(): an owned resource failed']);
  });

  it('dispose() cancels the running run, completes events$ and state$, and refuses new prompts', async () => {
    const hanging: ChatModel = { provider: 'test', modelId: 'hang', stream: () => NEVER };
    const agent = new Agent({ model: hanging });
    let eventsDone = false;
    let stateDone = false;
    agent.events$.subscribe({ complete: () => (eventsDone = true) });
    agent.state$.subscribe({ complete: () => (stateDone = true) });
    const run = agent.prompt('Hi');
    agent.dispose();
    await expect(run).resolves.toMatchObject({ reason: 'user-requested' });
    expect(agent.isRunning).toBe(false);
    expect(eventsDone && stateDone).toBe(true);
    await expect(agent.prompt('Again')).rejects.toThrow('The agent was disposed: create a new Agent.');
    const late: string[] = [];
    agent.own({ dispose: () => late.push('disposed at once') });
    expect(late).toEqual(['disposed at once']);
    agent.dispose(); // a second dispose is a no-op
  });

  it('keeps working normally until disposed', async () => {
    const agent = new Agent({ model: scriptedModel([textTurn('One.'), textTurn('Two.')]) });
    agent.own({});
    await agent.prompt('a');
    agent.reset();
    const result = await agent.prompt('b');
    expect(result.reason).toBe('completed');
    expect(agent.messages).toHaveLength(2);
  });
});
