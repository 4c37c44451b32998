import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionConflictError } from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { FileSession } from './file-session.js';
import { SessionFormatError } from './session-errors.js';
import { describeSessionContract } from './session-contract.test.js';
import { ensureBuilt, sampleTranscript, startChild } from './session-test-kit.test.js';

jest.setTimeout(120_000);

let dir = mkdtempSync(join(tmpdir(), 'rxagent-file-session-'));
const file = () => join(dir, 'chat.jsonl');

describeSessionContract(
  'FileSession',
  () => new FileSession(file()),
  () => {
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'rxagent-file-session-'));
  },
);

describe('FileSession on disk', () => {
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
    dir = mkdtempSync(join(tmpdir(), 'rxagent-file-session-'));
  });

  it('skips a line torn by a crash, and the next append starts a new line', async () => {
    const session = new FileSession(file());
    await session.append(sampleTranscript('a'), 0);
    const whole = readFileSync(file(), 'utf8');
    // What a crash mid-write leaves: the start of a record, no newline.
    appendFileSync(file(), whole.slice(0, Math.floor(whole.length / 2)));
    const fresh = new FileSession(file());
    expect((await fresh.load()).version).toBe(1);
    expect(await fresh.append(sampleTranscript('b'), 1)).toBe(2);
    const { messages, version } = await new FileSession(file()).load();
    expect(version).toBe(2);
    expect(messages).toHaveLength(8);
  });

  it('ignores a line that lost a race for its version (two writers past the check at once)', async () => {
    const session = new FileSession(file());
    await session.append(sampleTranscript('a'), 0);
    // The loser's line: the same version as the winner's, written after it.
    const loser = { v: 2, seq: 1, kind: 'append', writer: 'other', messages: sampleTranscript('lost') };
    appendFileSync(file(), `${JSON.stringify(loser)}\n`);
    const { messages, version } = await new FileSession(file()).load();
    expect(version).toBe(1);
    expect(JSON.stringify(messages)).not.toContain('lost');
  });

  it('loads a format-1 file (one message per line, ISO timestamps, string tool results) and appends after it', async () => {
    const v1 = [
      { v: 1, message: { role: 'user', content: 'List the files', timestamp: '2024-05-01T10:00:00.000Z' } },
      {
        v: 1,
        message: {
          role: 'assistant',
          content: [{ type: 'text', text: 'Listing.' }],
          toolCalls: [{ id: 'c1', name: 'list', args: { path: '.' } }],
          timestamp: '2024-05-01T10:00:01.000Z',
        },
      },
      {
        v: 1,
        message: {
          role: 'tool',
          toolCallId: 'c1',
          toolName: 'list',
          content: 'a.ts\nb.ts',
          timestamp: '2024-05-01T10:00:02.000Z',
        },
      },
    ];
    writeFileSync(file(), v1.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const session = new FileSession(file());
    const { messages, version } = await session.load();
    expect(version).toBe(3);
    expect(validateMessageSequence(messages)).toEqual([]);
    expect(messages[0]).toEqual({
      role: 'user',
      content: 'List the files',
      timestamp: Date.parse('2024-05-01T10:00:00.000Z'),
    });
    expect(messages[1]).toMatchObject({
      role: 'assistant',
      content: [
        { type: 'text', text: 'Listing.' },
        { type: 'tool-call', id: 'c1', name: 'list', args: { path: '.' } },
      ],
      stopReason: 'tool-calls',
    });
    expect(messages[2]).toMatchObject({
      role: 'tool',
      content: [{ type: 'text', text: 'a.ts\nb.ts' }],
      isError: false,
    });
    expect(await session.append(sampleTranscript(), 3)).toBe(4);
    expect((await new FileSession(file()).load()).messages).toHaveLength(7);
  });

  it('loads a file larger than the longest string (streamed, line by line)', async () => {
    await new FileSession(file()).append(sampleTranscript('a'), 0);
    // 544 MiB of blank lines (64 KiB each): more than one string can hold (0x1fffffe8 chars).
    const block = Buffer.from(`${' '.repeat(65_535)}\n`.repeat(128));
    for (let i = 0; i < 68; i++) appendFileSync(file(), block);
    const fresh = new FileSession(file());
    expect(await fresh.load()).toEqual({ messages: sampleTranscript('a'), version: 1 });
    expect(await fresh.append(sampleTranscript('b'), 1)).toBe(2);
    expect((await new FileSession(file()).load()).messages).toEqual([
      ...sampleTranscript('a'),
      ...sampleTranscript('b'),
    ]);
  });

  it('refuses a file written by a newer format with a SessionFormatError', async () => {
    writeFileSync(
      file(),
      `${JSON.stringify({ v: 99, seq: 1, kind: 'append', writer: 'x', messages: [] })}\n`,
    );
    const error = await new FileSession(file()).load().catch((e: unknown) => e);
    expect(SessionFormatError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/newer @rxagent\/sessions/);
  });

  describe('with other processes', () => {
    beforeAll(() => ensureBuilt());

    it('a process killed while appending never corrupts the turns before', async () => {
      const path = file();
      const { child, lines } = startChild(`
        const session = new sessions.FileSession(${JSON.stringify(path)});
        let { version } = await session.load();
        const big = 'x'.repeat(256 * 1024);
        for (let i = 0; ; i++) {
          version = await session.append([
            { role: 'user', content: big + i, timestamp: i },
            { role: 'assistant', content: [{ type: 'text', text: 'ok ' + i }], stopReason: 'stop',
              usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
              provider: 'p', model: 'm', timestamp: i },
          ], version);
          console.log(version);
        }
      `);
      let acknowledged = 0;
      for await (const line of lines) {
        acknowledged = Number(line);
        if (acknowledged >= 8) break;
      }
      child.kill('SIGKILL'); // mid-append, most likely mid-write of a 256 KB line
      await new Promise((r) => child.once('exit', r));
      const session = new FileSession(path);
      const { messages, version } = await session.load();
      expect(version).toBeGreaterThanOrEqual(acknowledged);
      expect(messages).toHaveLength(version * 2);
      messages.forEach((m, i) => {
        const turn = Math.floor(i / 2);
        if (m.role === 'user') expect(m.content).toBe('x'.repeat(256 * 1024) + turn);
        else expect(m.role === 'assistant' && m.content).toEqual([{ type: 'text', text: `ok ${turn}` }]);
      });
      // The file is still writable after the crash.
      expect(await session.append(sampleTranscript(), version)).toBe(version + 1);
      expect((await new FileSession(path).load()).version).toBe(version + 1);
    });

    it('two processes writing one session: conflicts, never an interleaved transcript', async () => {
      const path = file();
      const writer = (name: string) =>
        startChild(`
          const session = new sessions.FileSession(${JSON.stringify(path)});
          let conflicts = 0;
          let { version } = await session.load();
          for (let i = 0; i < 15; i++) {
            const batch = [
              { role: 'user', content: '${name}-' + i, timestamp: i },
              { role: 'assistant', content: [{ type: 'text', text: '${name}-' + i }], stopReason: 'stop',
                usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
                provider: 'p', model: 'm', timestamp: i },
            ];
            for (;;) {
              try { version = await session.append(batch, version); break; }
              catch (e) {
                if (e.name !== 'SessionConflictError') throw e;
                conflicts++;
                ({ version } = await session.load());
              }
            }
          }
          console.log(conflicts);
        `);
      const a = writer('A');
      const b = writer('B');
      await Promise.all([a.done, b.done]);
      const { messages, version } = await new FileSession(path).load();
      expect(version).toBe(30);
      expect(messages).toHaveLength(60);
      // Each batch is whole and adjacent; each writer's batches in its order, each once.
      const texts = messages.map((m) =>
        m.role === 'user'
          ? m.content
          : m.role === 'assistant' && m.content[0]?.type === 'text'
            ? m.content[0].text
            : '',
      );
      for (let i = 0; i < 60; i += 2) expect(texts[i + 1]).toBe(texts[i]);
      const batches = texts.filter((_, i) => i % 2 === 0) as string[];
      for (const name of ['A', 'B']) {
        expect(batches.filter((t) => t.startsWith(`${name}-`))).toEqual(
          Array.from({ length: 15 }, (_, i) => `${name}-${i}`),
        );
      }
    });

    it('a writer behind another process gets SessionConflictError', async () => {
      const path = file();
      const session = new FileSession(path);
      await session.load();
      const other = startChild(`
        const s = new sessions.FileSession(${JSON.stringify(path)});
        await s.append([{ role: 'user', content: 'from the other process', timestamp: 0 }], 0);
      `);
      await other.done;
      await expect(session.append(sampleTranscript(), 0)).rejects.toBeInstanceOf(SessionConflictError);
    });
  });
});
