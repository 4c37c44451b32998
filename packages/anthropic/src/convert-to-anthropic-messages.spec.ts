import { userMessage, type AssistantMessage, type Message, type ToolResultMessage } from '@rxagent/core';
import { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 };
const assistant = (
  content: AssistantMessage['content'],
  stopReason: AssistantMessage['stopReason'] = 'stop',
) =>
  ({
    role: 'assistant',
    content,
    stopReason,
    usage,
    provider: 'anthropic',
    model: 'm',
    timestamp: 0,
  }) as const;
const result = (id: string, text: string, isError = false): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text }],
  isError,
  timestamp: 0,
});

describe('convertToAnthropicMessages', () => {
  it('sends a string system prompt as one text block and user text as blocks', () => {
    expect(convertToAnthropicMessages({ system: 'Be brief.', messages: [userMessage('Hi')] })).toEqual({
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    });
  });

  it('merges consecutive tool results and the following user message into one user turn', () => {
    const messages: Message[] = [
      userMessage('Go'),
      assistant(
        [
          { type: 'tool-call', id: 'a', name: 'read', args: { p: 1 } },
          { type: 'tool-call', id: 'b', name: 'read', args: { p: 2 } },
        ],
        'tool-calls',
      ),
      result('a', 'one'),
      result('b', 'two', true),
      userMessage('And?'),
    ];
    const { messages: turns } = convertToAnthropicMessages({ messages });
    expect(turns.map((t) => t.role)).toEqual(['user', 'assistant', 'user']);
    expect(turns[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'a', content: [{ type: 'text', text: 'one' }] },
      { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'two' }], is_error: true },
      { type: 'text', text: 'And?' },
    ]);
  });

  it('sends signed thinking verbatim, redacted thinking as data, and drops unsigned thinking', () => {
    const { messages } = convertToAnthropicMessages({
      messages: [
        userMessage('Q'),
        assistant([
          { type: 'thinking', text: 'a', signature: 'sig' },
          { type: 'thinking', text: '', redacted: 'opaque' },
          { type: 'thinking', text: 'no signature' },
          { type: 'text', text: 'A' },
        ]),
      ],
    });
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'a', signature: 'sig' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'text', text: 'A' },
    ]);
  });

  it('skips failed empty assistant turns and empty text, so roles still alternate', () => {
    const { messages } = convertToAnthropicMessages({
      messages: [
        userMessage('One'),
        assistant([], 'error'),
        assistant([{ type: 'text', text: '' }]),
        userMessage('Two'),
      ],
    });
    expect(messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
    ]);
  });

  it('sends tool calls with unparsed arguments as an empty input', () => {
    const { messages } = convertToAnthropicMessages({
      messages: [
        assistant([
          { type: 'tool-call', id: 'a', name: 'read', args: {}, argsText: '{"p', argsError: 'bad' },
        ]),
      ],
    });
    expect(messages[0]?.content).toEqual([{ type: 'tool_use', id: 'a', name: 'read', input: {} }]);
  });

  it('appends transcript system messages to the system prompt', () => {
    const { system } = convertToAnthropicMessages({
      system: [{ type: 'text', text: 'Base', cache: true }],
      messages: [{ role: 'system', content: 'Later rule', timestamp: 0 }, userMessage('Hi')],
    });
    expect(system).toEqual([
      { type: 'text', text: 'Base', cache_control: { type: 'ephemeral' } },
      { type: 'text', text: 'Later rule' },
    ]);
  });

  it('with cacheControl marks the last system block and the last cacheable block of the last turn', () => {
    const { system, messages } = convertToAnthropicMessages({
      system: 'S',
      cacheControl: true,
      messages: [
        userMessage('Q'),
        assistant([
          { type: 'text', text: 'A' },
          { type: 'thinking', text: 't', signature: 's' },
        ]),
      ],
    });
    expect(system).toEqual([{ type: 'text', text: 'S', cache_control: { type: 'ephemeral' } }]);
    expect(messages[0]?.content).toEqual([{ type: 'text', text: 'Q' }]);
    expect(messages[1]?.content).toEqual([
      { type: 'text', text: 'A', cache_control: { type: 'ephemeral' } },
      { type: 'thinking', thinking: 't', signature: 's' },
    ]);
  });

  it('does not change the transcript it converts', () => {
    const messages: Message[] = [userMessage('Q'), result('a', 'r')];
    const copy = JSON.parse(JSON.stringify(messages)) as unknown;
    convertToAnthropicMessages({ messages, cacheControl: true });
    expect(messages).toEqual(copy);
  });
});
