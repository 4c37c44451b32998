import { escapeName } from './escape-name.js';

describe('escapeName', () => {
  it.each([
    ['a\nb', 'a\\nb'],
    ['tab\there', 'tab\\there'],
    ['cr\r', 'cr\\r'],
    ['esc\u001b[31m', 'esc\\u001b[31m'],
    ['del\u007f', 'del\\u007f'],
    ['ls\u2028', 'ls\\u2028'],
    ['plain/name é.ts', 'plain/name é.ts'],
  ])('%j → %j', (name, expected) => {
    expect(escapeName(name)).toBe(expected);
  });
});
