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
});
