import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { listTool, type ListArgs } from './list-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

describe('list', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
    await t.put('b.txt', '');
    await t.put('a/one.ts', '');
    await t.put('a/deep/two.ts', '');
    await t.put('node_modules/pkg/index.js', '');
    await t.put('.git/HEAD', '');
    await t.put('.env', '');
  });
  afterEach(() => t.cleanup());
  const list = (args: ListArgs = {}, maxEntries?: number) =>
    execute(listTool({ root: t.root, maxEntries }), args, toolContext());

  it('lists the root by default: sorted, folders with a trailing /', async () => {
    expect((await list()).split('\n')).toEqual(['.env', '.git/', 'a/', 'b.txt', 'node_modules/']);
  });

  it('walks subfolders with depth, paths relative to the root, not entering node_modules and .git', async () => {
    expect((await list({ depth: 5 })).split('\n')).toEqual([
      '.env',
      '.git/',
      'a/',
      'a/deep/',
      'a/deep/two.ts',
      'a/one.ts',
      'b.txt',
      'node_modules/',
    ]);
    expect((await list({ path: 'a', depth: 1 })).split('\n')).toEqual(['a/deep/', 'a/one.ts']);
  });

  it('marks symlinks with @ and does not follow them', async () => {
    await symlink(t.outside, path.join(t.root, 'out-link'));
    const out = await list({ depth: 3 });
    expect(out).toContain('out-link@');
    expect(out).not.toContain('secret');
  });

  it('stops at the entry cap with a note, and a call may ask for fewer', async () => {
    expect(await list({ depth: 5 }, 3)).toBe(
      '.env\n.git/\na/\n\n[Stopped at 3 entries: list a subfolder, or use a smaller depth, to see the rest.]',
    );
    expect(await list({ limit: 2 })).toMatch(/^\.env\n\.git\/\n\n\[Stopped at 2 entries/);
    expect(await list({ limit: 1000 }, 5)).not.toContain('Stopped');
    expect(await list({ limit: 1000, depth: 5 }, 3)).toContain('[Stopped at 3 entries');
  });

  it('reports an empty folder, a file and a missing folder', async () => {
    await mkdir(path.join(t.root, 'empty'));
    expect(await list({ path: 'empty' })).toBe('[empty is empty.]');
    await expect(list({ path: 'b.txt' })).rejects.toThrow(
      'b.txt is a file, not a folder: use read to see it.',
    );
    await expect(list({ path: 'nope' })).rejects.toThrow('Folder not found: nope.');
  });

  it('stops when the call is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      execute(listTool({ root: t.root }), { depth: 3 }, toolContext({ signal: controller.signal })),
    ).rejects.toThrow(/cancelled/);
  });

  it('escapes control characters so a name with a newline stays one entry', async () => {
    await t.put('a\nb', '');
    await t.put('c\u001b[31md', '');
    const lines = (await list()).split('\n');
    expect(lines).toContain('a\\nb');
    expect(lines).toContain('c\\u001b[31md');
    expect(lines).toHaveLength(7);
  });

  it('is declared safe to run concurrently', () => {
    expect(listTool({ root: '/' }).concurrencySafe).toBe(true);
  });
});
