import { clipText, TEXT_LIMIT } from './text-limits.js';

describe('clipText', () => {
  it('keeps short text as it is', () => {
    expect(clipText('short', 100)).toBe('short');
    expect(clipText('abcd', 4)).toBe('abcd');
  });

  it('clips long text to the limit, ending with an ellipsis', () => {
    expect(clipText('x'.repeat(10), 4)).toBe('xxx…');
    const clipped = clipText('y'.repeat(100_000));
    expect(clipped).toHaveLength(TEXT_LIMIT);
    expect(clipped.endsWith('…')).toBe(true);
  });
});
