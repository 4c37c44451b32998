import { emptyUsage, type AssistantMessage } from '@rxagent/core';
import {
  IMAGE_OMITTED_TEXT,
  imageUrl,
  isSkippedAssistant,
  reasoningEffort,
  systemText,
  toolArgumentsText,
  toolResultText,
} from './openai-request-parts.js';

describe('request parts', () => {
  it('joins system blocks and drops an empty prompt', () => {
    expect(systemText('Be brief.')).toBe('Be brief.');
    expect(
      systemText([
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B', cache: true },
      ]),
    ).toBe('A\n\nB');
    expect(systemText('')).toBeUndefined();
    expect(systemText(undefined)).toBeUndefined();
  });

  it('turns images into data URLs (guessing the type) or keeps their url', () => {
    expect(imageUrl({ type: 'image', data: 'AAAA', mimeType: 'image/webp' })).toBe(
      'data:image/webp;base64,AAAA',
    );
    expect(imageUrl({ type: 'image', data: '/9j/4AAQ' })).toBe('data:image/jpeg;base64,/9j/4AAQ');
    expect(imageUrl({ type: 'image', data: 'iVBORw0' })).toBe('data:image/png;base64,iVBORw0');
    expect(imageUrl({ type: 'image', url: 'https://x/y.png' })).toBe('https://x/y.png');
    expect(imageUrl({ type: 'image' })).toBeUndefined();
  });

  it('sends back raw text for unparsable arguments, JSON otherwise', () => {
    expect(toolArgumentsText({ type: 'tool-call', id: 'c', name: 'n', args: { a: 1 } })).toBe('{"a":1}');
    expect(
      toolArgumentsText({ type: 'tool-call', id: 'c', name: 'n', args: {}, argsText: '{"a', argsError: 'x' }),
    ).toBe('{"a');
  });

  it('makes tool results text, with a note for images', () => {
    expect(
      toolResultText([
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AAAA' },
      ]),
    ).toBe(`a\n${IMAGE_OMITTED_TEXT}`);
  });

  it('skips only failed assistant turns with no content', () => {
    const base: AssistantMessage = {
      role: 'assistant',
      content: [],
      stopReason: 'error',
      usage: emptyUsage(),
      provider: 'openai',
      model: 'm',
      timestamp: 0,
    };
    expect(isSkippedAssistant(base)).toBe(true);
    expect(isSkippedAssistant({ ...base, content: [{ type: 'text', text: 'x' }] })).toBe(false);
    expect(isSkippedAssistant({ ...base, stopReason: 'stop' })).toBe(false);
  });

  it('maps thinking levels to reasoning effort, off to nothing', () => {
    expect(reasoningEffort('off')).toBeUndefined();
    expect(reasoningEffort(undefined)).toBeUndefined();
    expect(reasoningEffort('minimal')).toBe('minimal');
    expect(reasoningEffort('high')).toBe('high');
  });
});
