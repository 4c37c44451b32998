import { readFile, symlink, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createReadState, type FileReadState } from './read-state.js';
import { readTool } from './read-tool.js';
import { ReadBeforeWriteError } from './tool-errors.js';
import { writeTool } from './write-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

describe('write', () => {
  let t: TempRoot;
  let readState: FileReadState;
  beforeEach(async () => {
    t = await tempRoot();
    readState = createReadState();
  });
  afterEach(() => t.cleanup());
  const write = (p: string, content: string, runId = 'run-1') =>
    execute(writeTool({ root: t.root, readState }), { path: p, content }, toolContext({ runId }));
  const read = (p: string, runId = 'run-1') =>
    execute(readTool({ root: t.root, readState }), { path: p }, toolContext({ runId }));

  it('creates a new file and its folders without a read', async () => {
    expect(await write('a/b/c.txt', 'héllo\n')).toBe('Created a/b/c.txt (7 bytes).');
    expect(await readFile(path.join(t.root, 'a/b/c.txt'), 'utf8')).toBe('héllo\n');
  });

  it('refuses to overwrite an existing file not read in this run', async () => {
    await t.put('a.txt', 'old\n');
    const error = await write('a.txt', 'new\n').catch((e: unknown) => e);
    expect(ReadBeforeWriteError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe(
      'a.txt already exists and has not been read in this run: read it first, then write or edit it.',
    );
    expect(await readFile(path.join(t.root, 'a.txt'), 'utf8')).toBe('old\n');
  });

  it('overwrites after a read', async () => {
    await t.put('a.txt', 'old\n');
    await read('a.txt');
    expect(await write('a.txt', 'new\n')).toBe('Overwrote a.txt (4 bytes).');
    expect(await readFile(path.join(t.root, 'a.txt'), 'utf8')).toBe('new\n');
  });

  it('does not count a read of another run', async () => {
    await t.put('a.txt', 'old\n');
    await read('a.txt', 'run-A');
    await expect(write('a.txt', 'new\n', 'run-B')).rejects.toThrow(/has not been read in this run/);
  });

  it('refuses when the file changed since the read, and accepts after a new read', async () => {
    const file = await t.put('a.txt', 'old\n');
    await read('a.txt');
    await writeFile(file, 'changed by someone else\n');
    await expect(write('a.txt', 'new\n')).rejects.toThrow(
      'a.txt has changed on disk since it was last read: read it again, then retry the change.',
    );
    await read('a.txt');
    await expect(write('a.txt', 'new\n')).resolves.toBe('Overwrote a.txt (4 bytes).');
  });

  it('detects a same-size change, and lets a mere touch through', async () => {
    const file = await t.put('a.txt', 'aaaa\n');
    const later = (s: number) => new Date(Date.now() + s * 1000);
    await read('a.txt');
    await writeFile(file, 'bbbb\n');
    await utimes(file, later(5), later(5));
    await expect(write('a.txt', 'cccc\n')).rejects.toThrow(/has changed on disk/);
    await read('a.txt');
    await utimes(file, later(10), later(10));
    await expect(write('a.txt', 'dddd\n')).resolves.toBe('Overwrote a.txt (5 bytes).');
  });

  it('allows consecutive writes after its own write', async () => {
    await write('a.txt', 'one\n');
    await expect(write('a.txt', 'two\n')).resolves.toBe('Overwrote a.txt (4 bytes).');
    await expect(write('a.txt', 'three\n')).resolves.toBe('Overwrote a.txt (6 bytes).');
  });

  it('refuses a folder as the target', async () => {
    await t.put('dir/x.txt', 'x');
    await expect(write('dir', 'x')).rejects.toThrow('dir is a folder: give the path of a file.');
  });

  it('writes through a symlink that stays inside the root, checking the real file', async () => {
    await t.put('real.txt', 'old\n');
    await symlink(path.join(t.root, 'real.txt'), path.join(t.root, 'alias.txt'));
    await read('real.txt');
    expect(await write('alias.txt', 'new\n')).toBe('Overwrote real.txt (4 bytes).');
  });

  it('is not declared safe to run concurrently', () => {
    expect(writeTool({ root: '/' }).concurrencySafe).toBe(false);
  });
});
