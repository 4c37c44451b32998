import { mapGoogleFinishReason } from './map-google-finish-reason.js';

describe('mapGoogleFinishReason', () => {
  it.each([
    ['STOP', 'stop'],
    ['MAX_TOKENS', 'length'],
    ['SAFETY', 'content-filter'],
    ['RECITATION', 'content-filter'],
    ['PROHIBITED_CONTENT', 'content-filter'],
    ['BLOCKLIST', 'content-filter'],
    ['SPII', 'content-filter'],
    ['IMAGE_SAFETY', 'content-filter'],
    ['JAILBREAK', 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 'error'],
    ['UNEXPECTED_TOOL_CALL', 'error'],
    ['OTHER', 'stop'],
    ['FINISH_REASON_UNSPECIFIED', 'stop'],
    [undefined, 'stop'],
  ])('%s → %s', (reason, expected) => {
    expect(mapGoogleFinishReason(reason)).toBe(expected);
  });
});
