import { execFileSync } from 'node:child_process';
import { link, readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { editTool } from './edit-tool.js';
import { createReadState, stampOf, type FileReadState } from './read-state.js';
import { readTool } from './read-tool.js';
import { NotTextFileError } from './tool-errors.js';
import { writeTool } from './write-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

const latin1 = Buffer.from('caf\xe9\n', 'latin1');

describe('read, write and edit keep bytes and inodes safe', () => {
  let t: TempRoot;
  let readState: FileReadState;
  beforeEach(async () => {
    t = await tempRoot();
    readState = createReadState();
  });
  afterEach(() => t.cleanup());
  const read = (p: string) => execute(readTool({ root: t.root, readState }), { path: p }, toolContext());
  const write = (p: string, content: string) =>
    execute(writeTool({ root: t.root, readState }), { path: p, content }, toolContext());
  const edit = (p: string, oldText: string, newText: string) =>
    execute(editTool({ root: t.root, readState }), { path: p, oldText, newText }, toolContext());
  const reasonOf = (error: unknown) => (NotTextFileError.isInstance(error) ? error.reason : error);

  it('read says a Latin-1 file is not UTF-8 instead of showing mojibake', async () => {
    await t.put('latin1.txt', latin1);
    const error = await read('latin1.txt').catch((e: unknown) => e);
    expect(reasonOf(error)).toBe('not-utf8');
    expect((error as Error).message).toMatch(/^latin1\.txt is not valid UTF-8 text/);
  });

  it('edit refuses a Latin-1 file and leaves its bytes as they were', async () => {
    const file = await t.put('latin1.txt', latin1);
    // Never read (read refuses it): edit refuses it unread.
    expect(await edit('latin1.txt', 'caf', 'CAF').catch((e: unknown) => e)).toMatchObject({
      reason: 'not-read',
    });
    // Known to the run (as if read before it turned Latin-1): edit reads it and says why not.
    readState.record('run-1', file, stampOf(await stat(file), latin1));
    expect(reasonOf(await edit('latin1.txt', 'caf', 'CAF').catch((e: unknown) => e))).toBe('not-utf8');
    expect(await readFile(file)).toEqual(latin1);
  });

  it('write refuses to overwrite a Latin-1 file, saying why', async () => {
    const file = await t.put('latin1.txt', latin1);
    expect(reasonOf(await write('latin1.txt', 'CAF\n').catch((e: unknown) => e))).toBe('not-utf8');
    expect(await readFile(file)).toEqual(latin1);
  });

  it('treats a NUL byte anywhere as binary, not only in the first 8,000 bytes', async () => {
    const bytes = Buffer.concat([Buffer.from('a'.repeat(9000)), Buffer.from([0]), Buffer.from('b\n')]);
    const file = await t.put('late-nul.txt', bytes);
    expect(reasonOf(await read('late-nul.txt').catch((e: unknown) => e))).toBe('binary');
    readState.record('run-1', file, stampOf(await stat(file), bytes));
    expect(reasonOf(await edit('late-nul.txt', 'b', 'c').catch((e: unknown) => e))).toBe('binary');
    expect(await readFile(file)).toEqual(bytes);
  });

  it('edit replaces a hard-linked file instead of writing through to a file outside the root', async () => {
    const inside = path.join(t.root, 'linked.txt');
    await link(t.secret, inside);
    await read('linked.txt');
    await edit('linked.txt', 'top', 'no');
    expect(await readFile(inside, 'utf8')).toBe('no secret\n');
    expect(await readFile(t.secret, 'utf8')).toBe('top secret\n');
    expect((await stat(t.secret)).nlink).toBe(1);
  });

  it('write replaces a hard-linked file instead of writing through to a file outside the root', async () => {
    await link(t.secret, path.join(t.root, 'linked.txt'));
    await read('linked.txt');
    await write('linked.txt', 'overwritten\n');
    expect(await readFile(path.join(t.root, 'linked.txt'), 'utf8')).toBe('overwritten\n');
    expect(await readFile(t.secret, 'utf8')).toBe('top secret\n');
  });

  it('keeps the permission bits of a replaced file and leaves no temporary file behind', async () => {
    const file = await t.put('run.sh', 'echo hi\n');
    execFileSync('chmod', ['750', file]);
    await read('run.sh');
    await edit('run.sh', 'hi', 'ho');
    expect((await stat(file)).mode & 0o777).toBe(0o750);
    expect(await readdir(t.root)).toEqual(['run.sh']);
  });
});
