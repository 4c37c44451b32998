import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AgentConfigError, SessionConflictError, type Session } from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { SessionFormatError } from './session-errors.js';
import { SqliteSession } from './sqlite-session.js';
import { describeSessionContract } from './session-contract.test.js';
import { ensureBuilt, sampleTranscript, startChild } from './session-test-kit.test.js';
import { describeWithSqlite } from './sqlite-addon.test.js';
import type { SqliteDatabase } from './sqlite-database.js';

jest.setTimeout(120_000);

let dir = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-session-'));
const dbFile = () => join(dir, 'sessions.db');
const opened: SqliteSession[] = [];
const open = (id = 'chat'): SqliteSession => {
  const session = new SqliteSession(dbFile(), id);
  opened.push(session);
  return session;
};
const reset = () => {
  for (const s of opened.splice(0)) s.close();
  rmSync(dir, { recursive: true, force: true });
  dir = mkdtempSync(join(tmpdir(), 'rxagent-sqlite-session-'));
};

describeWithSqlite('SqliteSession', () => {
  describeSessionContract('SqliteSession', (): Session => open(), reset);

  const batchCode = (name: string) => `[
  { role: 'user', content: '${name}-' + i, timestamp: i },
  { role: 'assistant', content: [{ type: 'text', text: '${name}-' + i }], stopReason: 'stop',
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
    provider: 'p', model: 'm', timestamp: i },
]`;

  describe('SqliteSession on disk', () => {
    afterEach(reset);

    it('keeps sessions of one database apart', async () => {
      const a = open('a');
      const b = open('b');
      await a.append(sampleTranscript('a'), 0);
      expect(await b.load()).toEqual({ messages: [], version: 0 });
      expect((await open('a').load()).version).toBe(1);
    });

    it('refuses a constructor call it cannot use, saying what to pass', () => {
      const attempts: [unknown, unknown][] = [
        [{ path: dbFile() }, 'chat'],
        [undefined, 'chat'],
        ['', 'chat'],
        [dbFile(), undefined],
        [dbFile(), ''],
      ];
      for (const [database, id] of attempts) {
        let error: unknown;
        try {
          new SqliteSession(database as never, id as never);
        } catch (e) {
          error = e;
        }
        expect(AgentConfigError.isInstance(error)).toBe(true);
        expect((error as Error).message).toMatch(
          /^SqliteSession needs .*: new SqliteSession\('\.\/sessions\.db', 'chat-42'\)/,
        );
      }
      // An open better-sqlite3 database is accepted (and left open by close()).
      const db = new Database(':memory:');
      new SqliteSession(db, 'chat').close();
      expect(db.open).toBe(true);
      db.close();
    });

    it('loads rows of message format 1 (written by an older version)', async () => {
      const session = open();
      await session.load(); // creates the schema
      const db = new Database(dbFile());
      const insert = db.prepare(
        'INSERT INTO rxagent_session_messages (session_id, position, format, message) VALUES (?, ?, 1, ?)',
      );
      insert.run(
        'chat',
        0,
        JSON.stringify({ role: 'user', content: 'List', timestamp: '2024-05-01T10:00:00.000Z' }),
      );
      insert.run(
        'chat',
        1,
        JSON.stringify({
          role: 'assistant',
          content: [],
          toolCalls: [{ id: 'c1', name: 'list', args: {} }],
          timestamp: '2024-05-01T10:00:01.000Z',
        }),
      );
      insert.run(
        'chat',
        2,
        JSON.stringify({
          role: 'tool',
          toolCallId: 'c1',
          toolName: 'list',
          content: 'a.ts',
          timestamp: '2024-05-01T10:00:02.000Z',
        }),
      );
      db.prepare('INSERT INTO rxagent_sessions (id, version) VALUES (?, ?)').run('chat', 3);
      db.close();
      const { messages, version } = await session.load();
      expect(version).toBe(3);
      expect(validateMessageSequence(messages)).toEqual([]);
      expect(messages[2]).toMatchObject({
        role: 'tool',
        content: [{ type: 'text', text: 'a.ts' }],
        isError: false,
      });
      expect(messages[0]?.timestamp).toBe(Date.parse('2024-05-01T10:00:00.000Z'));
      expect(await session.append(sampleTranscript(), 3)).toBe(4);
      expect((await open().load()).messages).toHaveLength(7);
    });

    it('refuses rows of a newer format with a SessionFormatError', async () => {
      const session = open();
      await session.load(); // creates the schema
      const db = new Database(dbFile());
      db.prepare(
        'INSERT INTO rxagent_session_messages (session_id, position, format, message) VALUES (?, 0, 9, ?)',
      ).run('chat', JSON.stringify({ role: 'user', content: 'x', timestamp: 0 }));
      db.close();
      const error = await session.load().catch((e: unknown) => e);
      expect(SessionFormatError.isInstance(error)).toBe(true);
    });

    it('works on an open better-sqlite3 database it is given, and leaves it open', async () => {
      const db: SqliteDatabase = new Database(dbFile());
      const session = new SqliteSession(db, 'given');
      expect(await session.append(sampleTranscript('g'), 0)).toBe(1);
      session.close();
      expect(db.prepare('SELECT version FROM rxagent_sessions WHERE id = ?').get('given')).toEqual({
        version: 1,
      });
      db.close();
    });

    it('opens its file on the first call, not in the constructor', async () => {
      const path = join(dir, 'later', 'sessions.db');
      const session = new SqliteSession(path, 'chat'); // the folder does not exist yet: no error here
      mkdirSync(join(dir, 'later'));
      expect(await session.load()).toEqual({ messages: [], version: 0 });
      session.close();
      await expect(session.load()).rejects.toThrow('SqliteSession "chat" is closed.');
    });

    describe('with other processes', () => {
      beforeAll(() => ensureBuilt());

      it('a process killed while appending never corrupts the turns before', async () => {
        const path = dbFile();
        const { child, lines } = startChild(`
        const session = new sessions.SqliteSession(${JSON.stringify(path)}, 'chat');
        let { version } = await session.load();
        const big = 'x'.repeat(256 * 1024);
        for (let i = 0; ; i++) {
          version = await session.append(${batchCode('big').replace("'big-' + i", 'big + i')}, version);
          console.log(version);
        }
      `);
        let acknowledged = 0;
        for await (const line of lines) {
          acknowledged = Number(line);
          if (acknowledged >= 8) break;
        }
        child.kill('SIGKILL');
        await new Promise((r) => child.once('exit', r));
        const session = open();
        const { messages, version } = await session.load();
        expect(version).toBeGreaterThanOrEqual(acknowledged);
        expect(messages).toHaveLength(version * 2);
        messages.forEach((m, i) => {
          if (m.role === 'user') expect(m.content).toBe('x'.repeat(256 * 1024) + Math.floor(i / 2));
        });
        expect(await session.append(sampleTranscript(), version)).toBe(version + 1);
      });

      it('two processes writing one session: conflicts, never an interleaved transcript', async () => {
        const path = dbFile();
        await open().load(); // creates the schema before both start
        const writer = (name: string) =>
          startChild(`
          const session = new sessions.SqliteSession(${JSON.stringify(path)}, 'chat');
          let { version } = await session.load();
          for (let i = 0; i < 15; i++) {
            for (;;) {
              try { version = await session.append(${batchCode(name)}, version); break; }
              catch (e) {
                if (e.name !== 'SessionConflictError') throw e;
                ({ version } = await session.load());
              }
            }
          }
          session.close();
        `);
        const a = writer('A');
        const b = writer('B');
        await Promise.all([a.done, b.done]);
        const { messages, version } = await open().load();
        expect(version).toBe(30);
        const texts = messages.map((m) =>
          m.role === 'user'
            ? m.content
            : m.role === 'assistant' && m.content[0]?.type === 'text'
              ? m.content[0].text
              : '',
        );
        expect(texts).toHaveLength(60);
        for (let i = 0; i < 60; i += 2) expect(texts[i + 1]).toBe(texts[i]);
        const batches = texts.filter((_, i) => i % 2 === 0) as string[];
        for (const name of ['A', 'B']) {
          expect(batches.filter((t) => t.startsWith(`${name}-`))).toEqual(
            Array.from({ length: 15 }, (_, i) => `${name}-${i}`),
          );
        }
      });

      it('a writer behind another process gets SessionConflictError', async () => {
        const path = dbFile();
        const session = open();
        await session.load();
        const other = startChild(`
        const s = new sessions.SqliteSession(${JSON.stringify(path)}, 'chat');
        await s.append([{ role: 'user', content: 'from the other process', timestamp: 0 }], 0);
        s.close();
      `);
        await other.done;
        await expect(session.append(sampleTranscript(), 0)).rejects.toBeInstanceOf(SessionConflictError);
      });
    });
  });
});
