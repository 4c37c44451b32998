import { emptyUsage, userMessage, type AssistantMessage } from '@rxagent/core';
import { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';

const assistant = (
  content: AssistantMessage['content'],
  stopReason: AssistantMessage['stopReason'] = 'stop',
) =>
  ({
    role: 'assistant',
    content,
    stopReason,
    usage: emptyUsage(),
    provider: 'openai',
    model: 'm',
    timestamp: 0,
  }) as const;

describe('convertToOpenAIChatMessages', () => {
  it('puts the system prompt first and keeps user text as a string', () => {
    expect(convertToOpenAIChatMessages('Be brief.', [userMessage('Hi')])).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
    ]);
  });

  it('drops thinking, sends text and tool calls, null content when there is no text', () => {
    const messages = convertToOpenAIChatMessages(undefined, [
      assistant([
        { type: 'thinking', text: 'secret plan', signature: 's' },
        { type: 'tool-call', id: 'c1', name: 'ls', args: { dir: '.' } },
      ]),
    ]);
    expect(messages).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'ls', arguments: '{"dir":"."}' } }],
      },
    ]);
  });

  it('skips failed empty assistant turns and assistant turns left with nothing to send', () => {
    expect(
      convertToOpenAIChatMessages(undefined, [
        assistant([], 'error'),
        assistant([{ type: 'thinking', text: 'only thoughts' }]),
        userMessage('Go on'),
      ]),
    ).toEqual([{ role: 'user', content: 'Go on' }]);
  });

  it('keeps a failed assistant turn that has content', () => {
    expect(
      convertToOpenAIChatMessages(undefined, [assistant([{ type: 'text', text: 'Part' }], 'error')]),
    ).toEqual([{ role: 'assistant', content: 'Part' }]);
  });

  it('sends error tool results with their text as is', () => {
    expect(
      convertToOpenAIChatMessages(undefined, [
        {
          role: 'tool',
          toolCallId: 'c1',
          toolName: 'ls',
          content: [{ type: 'text', text: 'ENOENT: no such directory' }],
          isError: true,
          timestamp: 0,
        },
      ]),
    ).toEqual([{ role: 'tool', tool_call_id: 'c1', content: 'ENOENT: no such directory' }]);
  });
});
