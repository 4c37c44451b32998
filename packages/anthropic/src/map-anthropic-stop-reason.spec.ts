import { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';

describe('mapAnthropicStopReason', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['pause_turn', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    [null, 'stop'],
    [undefined, 'stop'],
    ['a_reason_from_the_future', 'stop'],
  ])('maps %s to %s', (reason, expected) => {
    expect(mapAnthropicStopReason(reason)).toBe(expected);
  });
});
