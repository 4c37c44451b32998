import { open, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { editTool, type EditArgs } from './edit-tool.js';
import { createReadState, type FileReadState } from './read-state.js';
import { readTool } from './read-tool.js';
import { EditMatchError, ReadBeforeWriteError } from './tool-errors.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

describe('edit', () => {
  let t: TempRoot;
  let readState: FileReadState;
  beforeEach(async () => {
    t = await tempRoot();
    readState = createReadState();
  });
  afterEach(() => t.cleanup());
  const edit = (args: EditArgs, runId = 'run-1') =>
    execute(editTool({ root: t.root, readState }), args, toolContext({ runId }));
  const putAndRead = async (p: string, content: string | Buffer) => {
    const file = await t.put(p, content);
    await execute(readTool({ root: t.root, readState }), { path: p }, toolContext());
    return file;
  };

  it('replaces a unique match and returns a unified diff', async () => {
    const file = await putAndRead('a.ts', 'one\ntwo\nthree\nfour\nfive\nsix\nseven\n');
    const out = await edit({ path: 'a.ts', oldText: 'four', newText: 'FOUR\nFOUR-B' });
    expect(out.split('\n')).toEqual([
      'Edited a.ts: 1 replacement.',
      '',
      '--- a/a.ts',
      '+++ b/a.ts',
      '@@ -1,7 +1,8 @@',
      ' one',
      ' two',
      ' three',
      '-four',
      '+FOUR',
      '+FOUR-B',
      ' five',
      ' six',
      ' seven',
    ]);
    expect(await readFile(file, 'utf8')).toBe('one\ntwo\nthree\nFOUR\nFOUR-B\nfive\nsix\nseven\n');
  });

  it('refuses a match that is not unique, saying how many and what to do', async () => {
    await putAndRead('a.ts', 'x = 1;\nx = 1;\nx = 1;\n');
    const error = await edit({ path: 'a.ts', oldText: 'x = 1;', newText: 'x = 2;' }).catch((e: unknown) => e);
    expect(EditMatchError.isInstance(error)).toBe(true);
    expect((error as EditMatchError).matches).toBe(3);
    expect((error as Error).message).toBe(
      'oldText matches 3 times in a.ts: add more surrounding lines to oldText so it matches exactly ' +
        'once, or set replaceAll: true to replace every match.',
    );
  });

  it('says when oldText is not found, with a hint about line numbers', async () => {
    await putAndRead('a.ts', 'const a = 1;\n');
    await expect(edit({ path: 'a.ts', oldText: 'const b', newText: 'x' })).rejects.toThrow(
      /^oldText was not found in a\.ts\. It must match the file exactly/,
    );
    await expect(edit({ path: 'a.ts', oldText: '     1\tconst a', newText: 'x' })).rejects.toThrow(
      /leave the numbers and the tab out/,
    );
  });

  it('replaces every match with replaceAll, and writes `$` patterns literally', async () => {
    const file = await putAndRead('a.ts', 'a-a-a\n');
    expect(await edit({ path: 'a.ts', oldText: 'a', newText: '$&$1', replaceAll: true })).toMatch(
      /^Edited a\.ts: 3 replacements\./,
    );
    expect(await readFile(file, 'utf8')).toBe('$&$1-$&$1-$&$1\n');
  });

  it('keeps CRLF line endings, matching text given with \\n', async () => {
    const file = await putAndRead('win.txt', 'first\r\nsecond\r\nthird\r\n');
    const out = await edit({ path: 'win.txt', oldText: 'first\nsecond', newText: 'uno\ndos\ntres' });
    expect(await readFile(file, 'utf8')).toBe('uno\r\ndos\r\ntres\r\nthird\r\n');
    expect(out).not.toContain('\r');
  });

  it('keeps a UTF-8 BOM', async () => {
    const file = await putAndRead('bom.txt', Buffer.from('\uFEFFhello world\n', 'utf8'));
    await edit({ path: 'bom.txt', oldText: 'world', newText: 'there' });
    const bytes = await readFile(file);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(bytes.subarray(3).toString('utf8')).toBe('hello there\n');
  });

  it('needs a read in this run, and a fresh one after an outside change', async () => {
    const file = await t.put('a.ts', 'let a = 1;\n');
    await expect(edit({ path: 'a.ts', oldText: '1', newText: '2' })).rejects.toThrow(
      /has not been read in this run/,
    );
    await execute(readTool({ root: t.root, readState }), { path: 'a.ts' }, toolContext());
    await expect(edit({ path: 'a.ts', oldText: '1', newText: '2' }, 'run-2')).rejects.toThrow(
      /not been read/,
    );
    await writeFile(file, 'let a = 10;\n');
    await expect(edit({ path: 'a.ts', oldText: '1', newText: '2' })).rejects.toThrow(/read it again/);
  });

  it('allows consecutive edits after one read', async () => {
    const file = await putAndRead('a.ts', 'a\nb\n');
    await edit({ path: 'a.ts', oldText: 'a', newText: 'A' });
    await edit({ path: 'a.ts', oldText: 'b', newText: 'B' });
    expect(await readFile(file, 'utf8')).toBe('A\nB\n');
  });

  it('refuses a missing file, an empty oldText and a change to the same text', async () => {
    await expect(edit({ path: 'nope.ts', oldText: 'a', newText: 'b' })).rejects.toThrow(
      'File not found: nope.ts. Use write to create a new file.',
    );
    await putAndRead('a.ts', 'a\n');
    await expect(edit({ path: 'a.ts', oldText: '', newText: 'b' })).rejects.toThrow(/oldText is empty/);
    await expect(edit({ path: 'a.ts', oldText: 'a', newText: 'a' })).rejects.toThrow(/nothing to change/);
  });

  it('leaves the file untouched when it refuses', async () => {
    const file = await putAndRead('a.ts', 'x\nx\n');
    await expect(edit({ path: 'a.ts', oldText: 'x', newText: 'y' })).rejects.toThrow(/matches 2 times/);
    expect(await readFile(file, 'utf8')).toBe('x\nx\n');
  });

  it('is not declared safe to run concurrently', () => {
    expect(editTool({ root: '/' }).concurrencySafe).toBe(false);
  });

  describe('checks before reading the file', () => {
    // A sparse file: its size costs no disk, but reading it would cost its size in memory.
    // Over 2 GiB, Node refuses to read a file whole, so a read before the checks shows.
    const sparse = async (name: string, bytes: number) => {
      const file = path.join(t.root, name);
      const handle = await open(file, 'w');
      await handle.truncate(bytes);
      await handle.close();
      return file;
    };

    it('refuses a file that was never read without reading it', async () => {
      await sparse('huge.log', 3 * 1024 ** 3);
      const error = await edit({ path: 'huge.log', oldText: 'a', newText: 'b' }).catch((e: unknown) => e);
      expect(ReadBeforeWriteError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ reason: 'not-read' });
    });

    it('refuses a file over the size limit without reading it, even after a read was recorded', async () => {
      const file = await sparse('huge.log', 3 * 1024 ** 3);
      const stats = await stat(file);
      readState.record('run-1', file, { mtimeMs: stats.mtimeMs, size: stats.size, sha256: 'unknown' });
      await expect(edit({ path: 'huge.log', oldText: 'a', newText: 'b' })).rejects.toThrow(
        'huge.log is larger than edit accepts (3 GB, the limit is 20 MB): change it with bash (sed) or split it.',
      );
      const medium = await sparse('medium.log', 25 * 1024 ** 2);
      const mediumStats = await stat(medium);
      readState.record('run-1', medium, {
        mtimeMs: mediumStats.mtimeMs,
        size: mediumStats.size,
        sha256: 'x',
      });
      await expect(edit({ path: 'medium.log', oldText: 'a', newText: 'b' })).rejects.toThrow(
        'medium.log is larger than edit accepts (25 MB, the limit is 20 MB)',
      );
    });
  });
});
