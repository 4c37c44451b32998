import { compileGlob } from './glob.js';

describe('compileGlob', () => {
  it.each([
    ['*.ts', 'index.ts', true],
    ['*.ts', 'index.tsx', false],
    ['*.ts', 'src/index.ts', false],
    ['*.{ts,tsx}', 'a.tsx', true],
    ['*.{ts,tsx}', 'a.js', false],
    ['file?.md', 'file1.md', true],
    ['file?.md', 'file10.md', false],
    ['file?.md', 'file/.md', false],
    ['src/**/*.ts', 'src/a.ts', true],
    ['src/**/*.ts', 'src/a/b/c.ts', true],
    ['src/**/*.ts', 'lib/a.ts', false],
    ['**', 'a/b/c', true],
    ['a+b(1).txt', 'a+b(1).txt', true],
    ['a.txt', 'abtxt', false],
    ['{a,b', 'a', true],
    ['{a,{b,c}d}.js', 'cd.js', true],
    ['{a,{b,c}d}.js', 'c.js', false],
    ['x}y,z', 'x}y,z', true],
    ['', '', true],
    ['*', '', true],
  ])('%s on %s → %s', (glob, name, expected) => {
    expect(compileGlob(glob).test(name)).toBe(expected);
  });

  it('matches a pathological pattern without backtracking', async () => {
    const glob = compileGlob(`${'*?'.repeat(12)}.ts`);
    // A backtracking RegExp took seconds for each of these names: yielding between them lets
    // jest's default timeout stop the test (a single synchronous call cannot be interrupted).
    for (let length = 32; length <= 40; length++) {
      await new Promise((resolve) => setImmediate(resolve));
      expect(glob.test('a'.repeat(length))).toBe(false);
    }
    expect(glob.test(`${'a'.repeat(30)}.ts`)).toBe(true);
    expect(glob.test(`${'a/'.repeat(12)}.ts`)).toBe(false);
  });

  it('compiles to a number of states linear in the glob, bounding the work per character', () => {
    const sizes = [10, 100, 1000].map((n) => compileGlob(`${'*?{a,b}'.repeat(n)}.ts`).size);
    expect(sizes[1]).toBeLessThanOrEqual(11 * (sizes[0] as number));
    expect(sizes[2]).toBeLessThanOrEqual(11 * (sizes[1] as number));
    expect(sizes[2]).toBeLessThan(8 * 7 * 1000);
  });
});
