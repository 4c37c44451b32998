import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadSqlite } from './load-sqlite.js';
import { SqliteAddonError } from './sqlite-addon-error.js';

// better-sqlite3 is an optional add-on: these run whether or not it is installed and built.
describe('the optional SQLite add-on', () => {
  it('is not loaded by importing the package or by FileSession', async () => {
    const loaded: string[] = [];
    jest.resetModules();
    jest.doMock('better-sqlite3', () => {
      loaded.push('better-sqlite3');
      return {};
    });
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-no-sqlite-'));
    try {
      const sessions = await import('./index.js');
      const file = new sessions.FileSession(join(dir, 'chat.jsonl'));
      await file.append([{ role: 'user', content: 'hi', timestamp: 0 }], 0);
      expect((await file.load()).version).toBe(1);
      new sessions.SqliteSession(join(dir, 'chat.db'), 'chat'); // opens nothing yet
      expect(loaded).toEqual([]);
    } finally {
      jest.dontMock('better-sqlite3');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('missing, fails the first call with SqliteAddonError saying how to install it', async () => {
    const error = await loadSqlite('better-sqlite3-not-installed').catch((e: unknown) => e);
    expect(SqliteAddonError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^SqliteSession needs the optional add-on better-sqlite3-not-installed, which is not installed: install it .*npm install better-sqlite3@\^12.*or use FileSession/,
    );
  });

  it('installed without its native binary, fails with SqliteAddonError saying how to build it', async () => {
    jest.resetModules();
    jest.doMock(
      'fake-sqlite-without-binary',
      // As better-sqlite3 does: the module loads, its constructor loads the binary.
      () =>
        class {
          constructor() {
            throw new Error('Could not locate the bindings file. Tried:\n → build/better_sqlite3.node');
          }
        },
      { virtual: true },
    );
    try {
      const { loadSqlite: load } = await import('./load-sqlite.js');
      const error = await load('fake-sqlite-without-binary').catch((e: unknown) => e);
      expect(SqliteAddonError.isInstance(error)).toBe(true);
      expect((error as Error).message).toBe(
        'fake-sqlite-without-binary is installed but its native binary does not load (Could not locate the bindings file. Tried:): ' +
          'rebuild it (npm rebuild fake-sqlite-without-binary; with pnpm 10, allow its build with pnpm approve-builds), or use FileSession.',
      );
    } finally {
      jest.dontMock('fake-sqlite-without-binary');
    }
  });
});
