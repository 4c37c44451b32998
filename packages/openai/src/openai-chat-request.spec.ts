import { userMessage } from '@rxagent/core';
import { openAIChatBody } from './openai-chat-request.js';

const messages = [userMessage('Hi')];

describe('openAIChatBody', () => {
  it('sends only what the request sets, always streaming with usage', () => {
    expect(
      openAIChatBody('gpt-4o-mini', { messages, thinking: 'off', responseFormat: { type: 'text' } }),
    ).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('leaves tool_choice out when there are no tools', () => {
    expect(openAIChatBody('m', { messages, toolChoice: 'required' })).not.toHaveProperty('tool_choice');
  });

  it('maps string tool choices and JSON mode', () => {
    const body = openAIChatBody('m', {
      messages,
      tools: [{ name: 't', description: 'd', parameters: { type: 'object' } }],
      toolChoice: 'none',
      responseFormat: { type: 'json' },
    });
    expect(body).toMatchObject({ tool_choice: 'none', response_format: { type: 'json_object' } });
    expect(body.tools).toEqual([
      { type: 'function', function: { name: 't', description: 'd', parameters: { type: 'object' } } },
    ]);
  });

  it('spreads providerOptions.openai last, but keeps streaming on and merges stream_options', () => {
    const body = openAIChatBody('m', {
      messages,
      maxTokens: 10,
      providerOptions: {
        openai: {
          max_completion_tokens: 99,
          stream: false,
          stream_options: { include_obfuscation: false },
          seed: 1,
        },
      },
    });
    expect(body).toMatchObject({
      max_completion_tokens: 99,
      seed: 1,
      stream: true,
      stream_options: { include_usage: true, include_obfuscation: false },
    });
  });

  it('keeps the model and the usage report whatever providerOptions say', () => {
    const body = openAIChatBody('gpt-4o-mini', {
      messages,
      providerOptions: { openai: { model: 'o1-pro', stream_options: { include_usage: false } } },
    });
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream_options: { include_usage: true } });
  });
});
