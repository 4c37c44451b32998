import { userMessage } from '@rxagent/core';
import { openAIResponsesBody } from './openai-responses-request.js';

const messages = [userMessage('Hi')];

describe('openAIResponsesBody', () => {
  it('sends only what the request sets, with store false and streaming', () => {
    expect(openAIResponsesBody('gpt-5-mini', { messages, thinking: 'off' })).toEqual({
      model: 'gpt-5-mini',
      input: [{ role: 'user', content: 'Hi' }],
      store: false,
      stream: true,
    });
  });

  it('maps string tool choices, JSON mode and reasoning effort', () => {
    const body = openAIResponsesBody('m', {
      messages,
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      toolChoice: 'required',
      responseFormat: { type: 'json' },
      thinking: 'minimal',
    });
    expect(body).toMatchObject({
      tool_choice: 'required',
      text: { format: { type: 'json_object' } },
      reasoning: { effort: 'minimal' },
      tools: [
        { type: 'function', name: 't', description: 'd', parameters: { type: 'object' }, strict: false },
      ],
    });
  });

  it('lets providerOptions.openai override anything but streaming', () => {
    const body = openAIResponsesBody('m', {
      messages,
      thinking: 'low',
      providerOptions: {
        openai: { store: true, reasoning: { effort: 'low', summary: 'auto' }, stream: false },
      },
    });
    expect(body).toMatchObject({ store: true, reasoning: { effort: 'low', summary: 'auto' }, stream: true });
  });

  it('keeps the model whatever providerOptions say', () => {
    const body = openAIResponsesBody('gpt-5-mini', {
      messages,
      providerOptions: { openai: { model: 'o1-pro' } },
    });
    expect(body.model).toBe('gpt-5-mini');
  });
});
