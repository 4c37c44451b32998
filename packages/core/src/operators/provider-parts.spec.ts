import { of } from 'rxjs';
import { assistantMessage, collectEvents, finishEvent } from '@rxagent/testing';
import { runAgent } from '../loop/run-agent.js';
import type { AssistantMessage, ProviderPart } from '../messages/types.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import { initialAgentState } from '../state/agent-state.js';

// Content only the provider understands (a server tool's call and result, a generated image)
// goes through the loop like any part: streamed as a `message-update`, kept in the message.

const search: ProviderPart = {
  type: 'provider',
  provider: 'openai',
  kind: 'web_search_call',
  data: {
    type: 'web_search_call',
    id: 'ws_1',
    status: 'completed',
    action: { type: 'search', query: 'rxjs' },
  },
  text: 'web search: rxjs',
};

function modelOf(events: ModelEvent[]): ChatModel {
  return { provider: 'openai', modelId: 'm', stream: () => of(...events) };
}

describe('provider parts in the loop', () => {
  const message: AssistantMessage = {
    ...assistantMessage([{ type: 'text', text: 'RxJS is a library.' }]),
    content: [search, { type: 'text', text: 'RxJS is a library.' }],
    providerMetadata: { container: { id: 'cntr_1' } },
  };
  const events: ModelEvent[] = [
    { type: 'part', index: 0, part: search },
    { type: 'text-delta', index: 1, text: 'RxJS is a library.' },
    { type: 'part', index: 2, part: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' } },
    finishEvent({
      ...message,
      content: [...message.content, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }],
    }),
  ];

  it('emits a message-update carrying each whole part', async () => {
    const run = await collectEvents(runAgent({ model: modelOf(events), prompt: 'What is RxJS?' }));
    const updates = run.flatMap((e) => (e.type === 'message-update' ? [e.delta] : []));
    expect(updates).toEqual([
      { kind: 'part', text: '', index: 0, part: search },
      { kind: 'text', text: 'RxJS is a library.', index: 1 },
      {
        kind: 'part',
        text: '',
        index: 2,
        part: { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
      },
    ]);
  });

  it('keeps provider and image parts and the provider metadata in the finished message', async () => {
    const run = await collectEvents(runAgent({ model: modelOf(events), prompt: 'What is RxJS?' }));
    expect(run.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    const end = run.find((e) => e.type === 'message-end' && e.message.role === 'assistant');
    expect(end?.type === 'message-end' && end.message).toMatchObject({
      content: [search, { type: 'text' }, { type: 'image', mimeType: 'image/png' }],
      providerMetadata: { container: { id: 'cntr_1' } },
    });
    const state = run.reduce(reduceAgentState, initialAgentState());
    expect(state.messages.at(-1)).toMatchObject({ content: [search, { type: 'text' }, { type: 'image' }] });
  });
});
