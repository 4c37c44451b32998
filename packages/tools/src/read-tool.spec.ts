import path from 'node:path';
import { createReadState } from './read-state.js';
import { readTool } from './read-tool.js';
import { execute, type TempRoot, tempRoot, toolContext } from './test-helpers.test.js';

const numbered = (from: number, lines: string[]) =>
  lines.map((line, i) => `${String(from + i).padStart(6)}\t${line}`).join('\n');
const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `line ${from + i}`);

describe('read', () => {
  let t: TempRoot;
  beforeEach(async () => {
    t = await tempRoot();
  });
  afterEach(() => t.cleanup());
  const read = (args: { path: string; offset?: number; limit?: number }) =>
    execute(readTool({ root: t.root }), args, toolContext());

  it('shows a file with cat -n line numbers, CRLF and BOM taken out', async () => {
    await t.put('a.txt', 'alpha\nbeta\n');
    await t.put('crlf.txt', '\uFEFFone\r\ntwo');
    expect(await read({ path: 'a.txt' })).toBe('     1\talpha\n     2\tbeta');
    expect(await read({ path: 'crlf.txt' })).toBe('     1\tone\n     2\ttwo');
  });

  it('truncates at 2,000 lines with a note saying how to read more', async () => {
    await t.put('long.txt', range(1, 2500).join('\n'));
    const out = await read({ path: 'long.txt' });
    const [body, note] = out.split('\n\n');
    expect(body).toBe(numbered(1, range(1, 2000)));
    expect(note).toBe('[Showing lines 1-2000 of 2500. Use offset=2001 to read more.]');
    expect(await read({ path: 'long.txt', offset: 2001 })).toBe(
      `${numbered(2001, range(2001, 2500))}\n\n[Showing lines 2001-2500 of 2500.]`,
    );
  });

  it('truncates at 50 KB of text before 2,000 lines', async () => {
    const line = 'x'.repeat(99); // 100 bytes with its newline: 512 lines fill 51,200 bytes
    await t.put('wide.txt', Array.from({ length: 1000 }, () => line).join('\n'));
    const out = await read({ path: 'wide.txt' });
    const [body, note] = out.split('\n\n');
    expect(body?.split('\n')).toHaveLength(512);
    expect(note).toBe('[Showing lines 1-512 of 1000 (50 KB limit). Use offset=513 to read more.]');
  });

  it('cuts a single line longer than 50 KB and says so', async () => {
    await t.put('one.txt', `${'y'.repeat(60 * 1024)}\nnext`);
    const out = await read({ path: 'one.txt' });
    const [body, note] = out.split('\n\n');
    expect(body).toBe(`     1\t${'y'.repeat(50 * 1024)}`);
    expect(note).toBe('[Line 1 is longer than 50 KB: only its start is shown. Use offset=2 to read more.]');
  });

  it('reads a line range with offset and limit', async () => {
    await t.put('ten.txt', range(1, 10).join('\n') + '\n');
    expect(await read({ path: 'ten.txt', offset: 3, limit: 2 })).toBe(
      `${numbered(3, ['line 3', 'line 4'])}\n\n[Showing lines 3-4 of 10. Use offset=5 to read more.]`,
    );
    expect(await read({ path: 'ten.txt', limit: 10 })).toBe(numbered(1, range(1, 10)));
    await expect(read({ path: 'ten.txt', offset: 11 })).rejects.toThrow(
      'offset 11 is past the end of ten.txt, which has 10 lines.',
    );
  });

  it('reports a missing file, a folder, a binary file and an empty file', async () => {
    await expect(read({ path: 'nope.txt' })).rejects.toThrow('File not found: nope.txt.');
    await t.put('dir/x', '');
    await expect(read({ path: 'dir' })).rejects.toThrow('dir is a folder, not a file: use list');
    await t.put('img.png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]));
    await expect(read({ path: 'img.png' })).rejects.toThrow('img.png is a binary file');
    await t.put('empty.txt', '');
    expect(await read({ path: 'empty.txt' })).toBe('[empty.txt is empty.]');
  });

  it('records the read in the read-state under the run id, by real path', async () => {
    const file = await t.put('a.txt', 'alpha\n');
    const readState = createReadState();
    await execute(readTool({ root: t.root, readState }), { path: './a.txt' }, toolContext({ runId: 'r9' }));
    expect(readState.lastRead('r9', path.resolve(file))).toMatchObject({ size: 6 });
    expect(readState.lastRead('other', path.resolve(file))).toBeUndefined();
  });

  it('is declared safe to run concurrently', () => {
    expect(readTool({ root: '/' }).concurrencySafe).toBe(true);
  });
});
