import { userMessage, type ChatRequest } from '@rxagent/core';
import { ANTHROPIC_THINKING_BUDGETS, buildAnthropicRequest } from './build-anthropic-request.js';

const base: ChatRequest = { messages: [userMessage('Hi')] };
const build = (request: Partial<ChatRequest>) =>
  buildAnthropicRequest('claude-x', { ...base, ...request }, { defaultMaxTokens: 4096 });

describe('buildAnthropicRequest', () => {
  it.each([
    ['minimal', 1024],
    ['low', 2048],
    ['medium', 8192],
    ['high', 24576],
  ] as const)('thinking %s is a budget of %d on top of max_tokens', (level, budget) => {
    expect(ANTHROPIC_THINKING_BUDGETS[level]).toBe(budget);
    expect(build({ thinking: level, maxTokens: 100 })).toMatchObject({
      max_tokens: 100 + budget,
      thinking: { type: 'enabled', budget_tokens: budget },
    });
  });

  it('omits thinking when off and drops temperature while thinking', () => {
    expect(build({ thinking: 'off', temperature: 0.5 })).not.toHaveProperty('thinking');
    expect(build({ thinking: 'low', temperature: 0.5 })).not.toHaveProperty('temperature');
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['required', { type: 'any' }],
    ['none', { type: 'none' }],
    [
      { type: 'tool', name: 'read' },
      { type: 'tool', name: 'read' },
    ],
  ] as const)('maps tool choice %j', (choice, expected) => {
    const tools = [{ name: 'read', description: 'Read', parameters: { type: 'object' }, strict: true }];
    const body = build({ tools, toolChoice: choice });
    expect(body.tool_choice).toEqual(expected);
    expect(body.tools).toEqual([
      { name: 'read', description: 'Read', input_schema: { type: 'object' }, strict: true },
    ]);
  });

  it('asks for structured output with a JSON schema and sends nothing for text', () => {
    const schema = { type: 'object', properties: {} };
    expect(build({ responseFormat: { type: 'json-schema', name: 'x', schema } }).output_config).toEqual({
      format: { type: 'json_schema', schema },
    });
    expect(build({ responseFormat: { type: 'text' } })).not.toHaveProperty('output_config');
  });

  it('spreads providerOptions.anthropic last but keeps streaming on', () => {
    const body = build({
      maxTokens: 10,
      providerOptions: { anthropic: { max_tokens: 99, stream: false, service_tier: 'auto' } },
    });
    expect(body).toMatchObject({ max_tokens: 99, stream: true, service_tier: 'auto' });
  });

  it('keeps the model whatever providerOptions say', () => {
    expect(build({ providerOptions: { anthropic: { model: 'claude-opus-4-1' } } }).model).not.toBe(
      'claude-opus-4-1',
    );
  });
});
