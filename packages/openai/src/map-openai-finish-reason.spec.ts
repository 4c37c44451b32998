import { mapOpenAIFinishReason, mapOpenAIIncompleteReason } from './map-openai-finish-reason.js';

describe('mapOpenAIFinishReason', () => {
  it.each([
    ['stop', 'stop'],
    ['length', 'length'],
    ['tool_calls', 'tool-calls'],
    ['function_call', 'tool-calls'],
    ['content_filter', 'content-filter'],
    ['error', 'error'],
    ['something_new', 'stop'],
    [null, 'stop'],
    [undefined, 'stop'],
  ])('maps %p to %p', (reason, expected) => {
    expect(mapOpenAIFinishReason(reason)).toBe(expected);
  });
});

describe('mapOpenAIIncompleteReason', () => {
  it.each([
    ['max_output_tokens', 'length'],
    ['content_filter', 'content-filter'],
    [null, 'length'],
  ])('maps %p to %p', (reason, expected) => {
    expect(mapOpenAIIncompleteReason(reason)).toBe(expected);
  });
});
