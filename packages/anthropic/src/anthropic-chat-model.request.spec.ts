import { userMessage, type ChatRequest, type Message } from '@rxagent/core';
import { collect, textBlock, turn, withServer } from './anthropic-stream-fixtures.test.js';

const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 };

const transcript: Message[] = [
  { role: 'system', content: 'Answer in English.', timestamp: 0 },
  {
    role: 'user',
    content: [
      { type: 'text', text: 'What is in these?' },
      { type: 'image', data: PNG, mimeType: 'image/png' },
      { type: 'image', url: 'https://example.com/cat.jpg' },
    ],
    timestamp: 1,
  },
  {
    role: 'assistant',
    content: [
      { type: 'thinking', text: 'I should read both.', signature: 'sig-1' },
      { type: 'thinking', text: 'unsigned thoughts are not sent back' },
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', id: 'toolu_1', name: 'read', args: { path: 'a.md' } },
      { type: 'tool-call', id: 'toolu_2', name: 'read', args: { path: 'b.md' } },
    ],
    stopReason: 'tool-calls',
    usage,
    provider: 'anthropic',
    model: 'claude-test',
    timestamp: 2,
  },
  {
    role: 'tool',
    toolCallId: 'toolu_1',
    toolName: 'read',
    content: [{ type: 'text', text: '# A' }],
    isError: false,
    timestamp: 3,
  },
  {
    role: 'tool',
    toolCallId: 'toolu_2',
    toolName: 'read',
    content: [{ type: 'text', text: 'ENOENT: b.md' }],
    isError: true,
    timestamp: 4,
  },
  userMessage('Summarize.'),
  {
    role: 'assistant',
    content: [],
    stopReason: 'error',
    errorMessage: 'overloaded',
    usage,
    provider: 'anthropic',
    model: 'claude-test',
    timestamp: 5,
  },
  userMessage('Please try again.'),
];

const schema = { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] };
const readSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };

async function sentBody(request: ChatRequest, options = {}): Promise<unknown> {
  return withServer(
    () => turn(textBlock(0, 'ok')),
    async (model, server) => {
      await collect(model.stream(request));
      return server.requests[0]?.body;
    },
    options,
  );
}

describe('AnthropicChatModel request body', () => {
  it('sends every part type, tools, options and provider options as the Messages API expects', async () => {
    const body = await sentBody({
      system: [
        { type: 'text', text: 'You are terse.', cache: true },
        { type: 'text', text: 'Use the tools.' },
      ],
      messages: transcript,
      tools: [{ name: 'read', description: 'Read a file', parameters: readSchema }],
      toolChoice: { type: 'tool', name: 'read' },
      maxTokens: 1000,
      temperature: 0.3,
      thinking: 'medium',
      responseFormat: { type: 'json-schema', name: 'summary', schema },
      cacheControl: true,
      providerOptions: { anthropic: { metadata: { user_id: 'u-1' }, top_k: 5 }, openai: { store: true } },
    });
    expect(body).toEqual({
      model: 'claude-test',
      max_tokens: 1000 + 8192,
      stream: true,
      system: [
        { type: 'text', text: 'You are terse.', cache_control: { type: 'ephemeral' } },
        { type: 'text', text: 'Use the tools.' },
        { type: 'text', text: 'Answer in English.', cache_control: { type: 'ephemeral' } },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'I should read both.', signature: 'sig-1' },
            { type: 'text', text: 'Reading.' },
            { type: 'tool_use', id: 'toolu_1', name: 'read', input: { path: 'a.md' } },
            { type: 'tool_use', id: 'toolu_2', name: 'read', input: { path: 'b.md' } },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: '# A' }] },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_2',
              content: [{ type: 'text', text: 'ENOENT: b.md' }],
              is_error: true,
            },
            { type: 'text', text: 'Summarize.' },
            { type: 'text', text: 'Please try again.', cache_control: { type: 'ephemeral' } },
          ],
        },
      ],
      tools: [{ name: 'read', description: 'Read a file', input_schema: readSchema }],
      tool_choice: { type: 'tool', name: 'read' },
      thinking: { type: 'enabled', budget_tokens: 8192 },
      output_config: { format: { type: 'json_schema', schema } },
      metadata: { user_id: 'u-1' },
      top_k: 5,
    });
  });

  it('sends temperature and the default max_tokens when thinking is off, and no tool_choice without tools', async () => {
    const body = await sentBody({ messages: [userMessage('Hi')], temperature: 0.3, toolChoice: 'required' });
    expect(body).toEqual({
      model: 'claude-test',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
      temperature: 0.3,
    });
  });

  it('uses defaultMaxTokens and asks for JSON through the system prompt for responseFormat json', async () => {
    const body = await sentBody(
      { system: 'Be brief.', messages: [userMessage('Hi')], responseFormat: { type: 'json' } },
      { defaultMaxTokens: 512 },
    );
    expect(body).toMatchObject({
      max_tokens: 512,
      system: [
        { type: 'text', text: 'Be brief.' },
        { type: 'text', text: expect.stringContaining('JSON object') },
      ],
    });
  });
});
