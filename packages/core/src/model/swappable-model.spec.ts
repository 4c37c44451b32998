import { lastValueFrom, Subject, toArray } from 'rxjs';
import { assistantMessage, scriptedModel, textTurn } from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import { runAgent } from '../loop/run-agent.js';
import { userMessage } from '../messages/message-helpers.js';
import type { ChatModel } from './chat-model.js';
import type { ModelEvent } from './model-event.js';
import { swappableModel } from './swappable-model.js';

describe('swappableModel', () => {
  it('sends each call to the model it holds when the call starts', async () => {
    const first = scriptedModel([textTurn('one')], { provider: 'openai', modelId: 'a' });
    const second = scriptedModel([textTurn('two')], { provider: 'anthropic', modelId: 'b' });
    const model = swappableModel(first);
    expect([model.provider, model.modelId]).toEqual(['openai', 'a']);
    await lastValueFrom(runAgent({ model, prompt: 'Hi' }));
    model.swap(second);
    expect([model.provider, model.modelId, model.current]).toEqual(['anthropic', 'b', second]);
    await lastValueFrom(runAgent({ model, prompt: 'Hi again' }));
    expect([first.calls, second.calls]).toEqual([1, 1]);
  });

  it('lets a call in flight finish on the old model', async () => {
    const pending = new Subject<ModelEvent>();
    const old: ChatModel = { provider: 'old', modelId: 'old', stream: () => pending };
    const next = scriptedModel([textTurn('new')]);
    const model = swappableModel(old);
    const events = lastValueFrom(model.stream({ messages: [userMessage('Hi')] }).pipe(toArray()));
    model.swap(next);
    const done = assistantMessage([{ type: 'text', text: 'old answer' }]);
    pending.next({ type: 'finish', reason: 'stop', message: done });
    pending.complete();
    expect(await events).toEqual([{ type: 'finish', reason: 'stop', message: done }]);
    expect(next.calls).toBe(0);
  });

  it('makes the transcript portable for the model it swaps to', async () => {
    const signed = assistantMessage(
      [
        { type: 'thinking', text: 'hmm', signature: 'sig-1' },
        { type: 'text', text: 'A' },
      ],
      'stop',
      {
        provider: 'anthropic',
      },
    );
    const next = scriptedModel([textTurn('B')], { provider: 'openai' });
    const model = swappableModel(next);
    await lastValueFrom(
      model.stream({ messages: [userMessage('Q'), signed, userMessage('Q2')] }).pipe(toArray()),
    );
    expect(next.requests[0]?.messages[1]).toMatchObject({
      content: [
        { type: 'thinking', text: 'hmm' },
        { type: 'text', text: 'A' },
      ],
    });
    expect(JSON.stringify(next.requests[0]?.messages)).not.toContain('sig-1');
  });

  it('refuses something that is not a model', () => {
    expect(() => swappableModel(undefined as unknown as ChatModel)).toThrow(AgentConfigError);
    expect(() => swappableModel(scriptedModel([])).swap({} as ChatModel)).toThrow(
      /swap\(next\) needs a ChatModel/,
    );
  });
});
