import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { grepTool, type GrepArgs } from './grep-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

describe('grep', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
    await t.put('src/a.ts', 'export function alpha() {}\nconst x = 1;\nexport function beta() {}\n');
    await t.put('src/b.js', 'function gamma() {}\n');
    await t.put('README.md', '# Functions\n');
    await t.put('node_modules/dep/index.ts', 'export function hidden() {}\n');
    await t.put('.git/config', 'function inGit\n');
    await t.put('logo.bin', Buffer.concat([Buffer.from('function'), Buffer.from([0, 1, 2])]));
  });
  afterEach(() => t.cleanup());
  const grep = (args: GrepArgs, maxMatches?: number) =>
    execute(grepTool({ root: t.root, maxMatches }), args, toolContext());

  it('returns path:line: text lines, skipping binary files, node_modules and .git', async () => {
    expect((await grep({ pattern: 'function \\w+' })).split('\n')).toEqual([
      'src/a.ts:1: export function alpha() {}',
      'src/a.ts:3: export function beta() {}',
      'src/b.js:1: function gamma() {}',
    ]);
  });

  it('searches under a path or a single file, with ignoreCase and an include glob', async () => {
    expect(await grep({ pattern: 'functions', ignoreCase: true })).toBe('README.md:1: # Functions');
    expect(await grep({ pattern: 'function', include: '*.js' })).toBe('src/b.js:1: function gamma() {}');
    expect(
      await grep({ pattern: 'function', include: '*.{md,js}', ignoreCase: true }).then((s) => s.split('\n')),
    ).toEqual(['README.md:1: # Functions', 'src/b.js:1: function gamma() {}']);
    expect(await grep({ pattern: 'beta', path: 'src/a.ts' })).toBe('src/a.ts:3: export function beta() {}');
  });

  it('says when nothing matches', async () => {
    expect(await grep({ pattern: 'zeta', path: 'src' })).toBe('No matches for /zeta/ in src.');
  });

  it('stops at the match cap with a note', async () => {
    await t.put('many.txt', Array.from({ length: 50 }, (_, i) => `hit ${i}`).join('\n'));
    const out = await grep({ pattern: '^hit', path: 'many.txt' }, 10);
    const [body, note] = out.split('\n\n');
    expect(body?.split('\n')).toHaveLength(10);
    expect(note).toBe('[Stopped at 10 matching lines: narrow the pattern, path or include.]');
    expect(
      (await grep({ pattern: '^hit', path: 'many.txt', limit: 3 })).split('\n\n')[0]?.split('\n'),
    ).toHaveLength(3);
  });

  it('cuts long lines to a window around the match', async () => {
    await t.put('min.js', `${'a'.repeat(3000)}NEEDLE${'b'.repeat(3000)}`);
    const out = await grep({ pattern: 'NEEDLE', path: 'min.js' });
    expect(out.startsWith('min.js:1: …')).toBe(true);
    expect(out.endsWith('…')).toBe(true);
    expect(out).toContain('NEEDLE');
    expect(out.length).toBeLessThan(520);
  });

  it('reports an invalid regular expression and a missing path', async () => {
    await expect(grep({ pattern: 'a(b' })).rejects.toThrow(/^Invalid regular expression: /);
    await expect(grep({ pattern: 'a', path: 'nope' })).rejects.toThrow('Path not found: nope.');
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      execute(grepTool({ root: t.root }), { pattern: 'x' }, toolContext({ signal: controller.signal })),
    ).rejects.toThrow(/cancelled/);
  });

  it('never opens a FIFO: skips it while walking, refuses it as the path', async () => {
    // Reading a FIFO with no writer blocks forever: before the fix this test hung.
    execFileSync('mkfifo', [path.join(t.root, 'src/pipe')]);
    expect((await grep({ pattern: 'gamma' })).split('\n')).toEqual(['src/b.js:1: function gamma() {}']);
    await expect(grep({ pattern: 'x', path: 'src/pipe' })).rejects.toThrow(
      'src/pipe is not a regular file or folder: grep searches regular files only.',
    );
  });

  it('skips files with a NUL byte past the first 8,000 bytes, and files that are not UTF-8', async () => {
    await t.put(
      'late.bin',
      Buffer.concat([Buffer.from('x'.repeat(9000)), Buffer.from([0]), Buffer.from('function late')]),
    );
    await t.put('latin1.txt', Buffer.from('function caf\xe9\n', 'latin1'));
    expect(await grep({ pattern: 'function (late|caf)' })).toBe('No matches for /function (late|caf)/ in ..');
  });

  it('matches a pathological include glob without backtracking', async () => {
    // Names of 32+ characters not ending in .ts: a backtracking RegExp took seconds to reject
    // each. One per folder, so the walk yields to the event loop (and jest's timeout) between them.
    for (let length = 32; length <= 40; length++)
      await t.put(`d${length}/${'a'.repeat(length)}`, 'function x\n');
    await t.put(`${'b'.repeat(29)}.ts`, 'function y\n');
    expect(await grep({ pattern: 'function', include: `${'*?'.repeat(12)}.ts` })).toBe(
      `${'b'.repeat(29)}.ts:1: function y`,
    );
  });

  it('escapes control characters in the paths it prints', async () => {
    await t.put('two\nlines.txt', 'needle\n');
    expect(await grep({ pattern: 'needle' })).toBe('two\\nlines.txt:1: needle');
  });

  it('is declared safe to run concurrently', () => {
    expect(grepTool({ root: '/' }).concurrencySafe).toBe(true);
  });
});
