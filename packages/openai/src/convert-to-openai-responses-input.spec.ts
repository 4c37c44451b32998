import { emptyUsage, userMessage, type AssistantMessage } from '@rxagent/core';
import { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';

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

describe('convertToOpenAIResponsesInput', () => {
  it('keeps user text as a string', () => {
    expect(convertToOpenAIResponsesInput([userMessage('Hi')])).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('splits an assistant turn into text and function_call items in order, dropping thinking', () => {
    expect(
      convertToOpenAIResponsesInput([
        assistant([
          { type: 'thinking', text: 'plan' },
          { type: 'text', text: 'First ' },
          { type: 'text', text: 'this.' },
          { type: 'tool-call', id: 'call_1', name: 'ls', args: {} },
          { type: 'text', text: 'Then that.' },
        ]),
      ]),
    ).toEqual([
      { role: 'assistant', content: 'First this.' },
      { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
      { role: 'assistant', content: 'Then that.' },
    ]);
  });

  it('skips failed empty assistant turns', () => {
    expect(convertToOpenAIResponsesInput([assistant([], 'error')])).toEqual([]);
  });

  it('sends text-only tool results as a string output', () => {
    expect(
      convertToOpenAIResponsesInput([
        {
          role: 'tool',
          toolCallId: 'call_1',
          toolName: 'ls',
          content: [
            { type: 'text', text: 'a' },
            { type: 'text', text: 'b' },
          ],
          isError: true,
          timestamp: 0,
        },
      ]),
    ).toEqual([{ type: 'function_call_output', call_id: 'call_1', output: 'a\nb' }]);
  });
});
