import { globToRegExp } from './glob.js';

describe('globToRegExp', () => {
  it.each([
    ['*.ts', 'index.ts', true],
    ['*.ts', 'index.tsx', false],
    ['*.ts', 'src/index.ts', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['file?.md', 'file1.md', true],
    ['file?.md', 'file10.md', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['{a,b', 'a', true],
  ])('%s on %s → %s', (glob, name, expected) => {
    expect(globToRegExp(glob).test(name)).toBe(expected);
  });
});
