import { emptyUsage, type ChatRequest, type Message } from '@rxagent/core';
import type { SseTestServer } from '@rxagent/testing';
import { IMAGE_OMITTED_TEXT } from './openai-request-parts.js';
import {
  RESPONSES_START,
  chatText,
  collect,
  responsesCompleted,
  responsesMessage,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

const PNG = 'iVBORw0KGgo=';
const GIF = 'R0lGODlhAQABAAAAACw=';
const readParameters = {
  type: 'object',
  properties: { path: { type: 'string' } },
  required: ['path'],
  additionalProperties: false,
};
const answerSchema = { type: 'object', properties: { answer: { type: 'string' } } };

const transcript: Message[] = [
  { role: 'system', content: 'Mid-run note.', timestamp: 0 },
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
      { type: 'thinking', text: 'Let me think.', signature: 'sig' },
      { type: 'text', text: 'Let me check.' },
      { type: 'tool-call', id: 'call_1', name: 'read', args: { path: 'a.md' } },
      {
        type: 'tool-call',
        id: 'call_2',
        name: 'read',
        args: {},
        argsText: '{"pa',
        argsError: 'Unexpected end of JSON input',
      },
    ],
    stopReason: 'tool-calls',
    usage: emptyUsage(),
    provider: 'openai',
    model: 'gpt-test',
    timestamp: 2,
  },
  {
    role: 'tool',
    toolCallId: 'call_1',
    toolName: 'read',
    content: [
      { type: 'text', text: '# Title' },
      { type: 'image', data: GIF },
    ],
    isError: false,
    timestamp: 3,
  },
  {
    role: 'tool',
    toolCallId: 'call_2',
    toolName: 'read',
    content: [{ type: 'text', text: 'Arguments are not valid JSON.' }],
    isError: true,
    timestamp: 4,
  },
  {
    role: 'assistant',
    content: [],
    stopReason: 'error',
    errorMessage: 'connection cut',
    usage: emptyUsage(),
    provider: 'openai',
    model: 'gpt-test',
    timestamp: 5,
  },
  { role: 'user', content: 'Thanks', timestamp: 6 },
];

const request: ChatRequest = {
  system: [
    { type: 'text', text: 'You are terse.' },
    { type: 'text', text: 'Answer in English.', cache: true },
  ],
  messages: transcript,
  tools: [
    { name: 'read', description: 'Read a file', parameters: readParameters, strict: true },
    { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
  ],
  toolChoice: { type: 'tool', name: 'read' },
  maxTokens: 512,
  temperature: 0.2,
  thinking: 'low',
  responseFormat: { type: 'json-schema', name: 'answer', schema: answerSchema, strict: true },
  cacheControl: true,
  providerOptions: { openai: { user: 'user-1', temperature: 0.3 }, anthropic: { ignored: true } },
};

let server: SseTestServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('what the server receives', () => {
  it('maps a transcript with every part type to a Chat Completions body', async () => {
    server = await scriptedServer({ events: chatText(['ok']) });
    await collect(testModel(server).stream(request));
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You are terse.\n\nAnswer in English.' },
        { role: 'system', content: 'Mid-run note.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'What is in these?' },
            { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: 'Let me check.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read', arguments: '{"path":"a.md"}' } },
            { id: 'call_2', type: 'function', function: { name: 'read', arguments: '{"pa' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: `# Title\n${IMAGE_OMITTED_TEXT}` },
        { role: 'tool', tool_call_id: 'call_2', content: 'Arguments are not valid JSON.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          function: { name: 'read', description: 'Read a file', parameters: readParameters, strict: true },
        },
        {
          type: 'function',
          function: { name: 'now', description: 'The time', parameters: { type: 'object', properties: {} } },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'read' } },
      max_completion_tokens: 512,
      temperature: 0.3,
      reasoning_effort: 'low',
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'answer', schema: answerSchema, strict: true },
      },
      user: 'user-1',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps the same transcript to a Responses API body', async () => {
    server = await scriptedServer({
      events: [...RESPONSES_START, ...responsesMessage(0, ['ok']), responsesCompleted()],
    });
    await collect(testModel(server, { api: 'responses' }).stream(request));
    expect(server.requests[0]!.body).toEqual({
      model: 'gpt-test',
      // Reasoning is asked for and nothing is stored: its encrypted content comes back to us.
      include: ['reasoning.encrypted_content'],
      instructions: 'You are terse.\n\nAnswer in English.',
      input: [
        { role: 'system', content: 'Mid-run note.' },
        {
          role: 'user',
          content: [
            { type: 'input_text', text: 'What is in these?' },
            { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
            { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'auto' },
          ],
        },
        { role: 'assistant', content: 'Let me check.' },
        { type: 'function_call', call_id: 'call_1', name: 'read', arguments: '{"path":"a.md"}' },
        { type: 'function_call', call_id: 'call_2', name: 'read', arguments: '{"pa' },
        {
          type: 'function_call_output',
          call_id: 'call_1',
          output: [
            { type: 'input_text', text: '# Title' },
            { type: 'input_image', image_url: `data:image/gif;base64,${GIF}`, detail: 'auto' },
          ],
        },
        { type: 'function_call_output', call_id: 'call_2', output: 'Arguments are not valid JSON.' },
        { role: 'user', content: 'Thanks' },
      ],
      tools: [
        {
          type: 'function',
          name: 'read',
          description: 'Read a file',
          parameters: readParameters,
          strict: true,
        },
        {
          type: 'function',
          name: 'now',
          description: 'The time',
          parameters: { type: 'object', properties: {} },
          strict: false,
        },
      ],
      tool_choice: { type: 'function', name: 'read' },
      max_output_tokens: 512,
      temperature: 0.3,
      reasoning: { effort: 'low' },
      text: { format: { type: 'json_schema', name: 'answer', schema: answerSchema, strict: true } },
      store: false,
      user: 'user-1',
      stream: true,
    });
  });
});
