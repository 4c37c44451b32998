import { timeline } from './timeline.js';

describe('timeline', () => {
  it('writes groups at their frames', () => {
    expect(timeline([0, 'ATSE'], [10, 'SU'], [30, 'ENZ|'])).toBe('(ATSE) 4ms (SU) 16ms (ENZ|)');
  });

  it('writes single letters without a group', () => {
    expect(timeline([0, 'a'], [5, 'b'], [6, '|'])).toBe('a 4ms b|');
  });

  it('refuses frames that overlap the previous group', () => {
    expect(() => timeline([0, 'abc'], [2, 'd'])).toThrow('frame 2 comes before');
  });

  it('says how to write letters that fall inside the previous group', () => {
    expect(() => timeline([0, 'ATSE'], [3, 'U'])).toThrow(
      /the group \(ATSE\) at frame 0 takes frames 0–5 .* moving the later letters to frame 6 or after .* \[\[0, 'ATSE'\], \[3, 'U'\]/,
    );
  });
});
