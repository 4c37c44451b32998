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

  it('is declared safe to run concurrently', () => {
    expect(grepTool({ root: '/' }).concurrencySafe).toBe(true);
  });
});
