import { describeValue } from './describe-value.js';

describe('describeValue', () => {
  it.each<[unknown, string]>([
    [NaN, 'NaN'],
    [-0, '-0'],
    [-Infinity, '-Infinity'],
    ['3', '"3" (a string)'],
    [false, 'false (a boolean)'],
    [3n, '3n (a bigint)'],
    [Symbol('s'), 'Symbol(s) (a symbol)'],
    [() => 1, 'a function'],
    [null, 'null'],
    [undefined, 'undefined'],
    [[1, 'a'], '[1,"a"] (an array)'],
    [{ a: 1n }, '{…} (an object)'],
  ])('describes %p as %p', (value, text) => {
    expect(describeValue(value)).toBe(text);
  });

  it('describes a cyclic object without throwing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeValue(cyclic)).toBe('{…} (an object)');
  });

  it('clips long values', () => {
    expect(describeValue('x'.repeat(500), 20)).toBe(`"${'x'.repeat(19)}… (502 characters) (a string)`);
  });
});
