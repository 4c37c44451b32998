import { lastValueFrom } from 'rxjs';
import { runAgent, type ChatModel, type ChatRequest, type Message } from '@rxagent/core';
import { expandLoop } from './expand-loop.js';
import { asyncNoopTool, asyncToolLoopModel } from './models/async-tool-loop-model.js';
import { pendingAsyncModel } from './models/pending-async-model.js';

/** The model, recording the transcript of each request (without timestamps). */
function recording(model: ChatModel) {
  const requests: Omit<Message, 'timestamp'>[][] = [];
  const recorded: ChatModel = {
    ...model,
    stream: (request: ChatRequest) => {
      requests.push(request.messages.map(({ timestamp: _, ...m }) => m));
      return model.stream(request);
    },
  };
  return { model: recorded, requests };
}

describe('expandLoop, the smallest RxJS loop', () => {
  it('makes the same model requests as runAgent on the asynchronous tool loop', async () => {
    const loop = recording(asyncToolLoopModel(3));
    const calls = await lastValueFrom(expandLoop({ model: loop.model, tool: asyncNoopTool, prompt: 'go' }));
    expect(calls).toBe(4);
    const agent = recording(asyncToolLoopModel(3));
    await lastValueFrom(runAgent({ model: agent.model, tools: [asyncNoopTool], prompt: 'go' }));
    expect(loop.requests).toEqual(agent.requests);
    expect(loop.requests.at(-1)?.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(loop.requests.at(-1)?.[2]).toMatchObject({
      toolName: 'noop',
      content: [{ type: 'text', text: 'ok' }],
    });
  });

  it('stops at maxSteps', async () => {
    const calls = await lastValueFrom(
      expandLoop({ model: asyncToolLoopModel(10), tool: asyncNoopTool, prompt: 'go', maxSteps: 2 }),
    );
    expect(calls).toBe(2);
  });

  it('closes the model stream on unsubscribe', () => {
    const model = pendingAsyncModel();
    const sub = expandLoop({ model, tool: asyncNoopTool, prompt: 'go' }).subscribe();
    expect(model.live).toBe(1);
    sub.unsubscribe();
    expect(model.live).toBe(0);
    expect(model.opened).toBe(1);
  });
});
