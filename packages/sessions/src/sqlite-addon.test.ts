import { createRequire } from 'node:module';

// Whether the SQLite specs can run: better-sqlite3 is an optional native add-on that
// `pnpm install` does not build (pnpm sqlite builds it; CI does). Without it the SQLite specs
// are skipped with one line saying so, unless RXAGENT_SQLITE=required (CI), where they fail.

/** Why better-sqlite3 cannot open a database here, or undefined when it can. */
function sqliteProblem(): string | undefined {
  try {
    const Database = createRequire(__filename)('better-sqlite3') as new (file: string) => { close(): void };
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return (error as Error).message.split('\n')[0];
  }
}

/**
 * `describe` when better-sqlite3 works; otherwise the suite is skipped with one line on stderr
 * (or, with RXAGENT_SQLITE=required, a failing test that says why).
 */
export function describeWithSqlite(name: string, body: () => void): void {
  const problem = sqliteProblem();
  if (problem === undefined) return describe(name, body);
  if (process.env.RXAGENT_SQLITE === 'required') {
    return describe(name, () => {
      it('has the better-sqlite3 add-on built (RXAGENT_SQLITE=required)', () => {
        throw new Error(`better-sqlite3 cannot open a database: ${problem}. Build it with: pnpm sqlite`);
      });
    });
  }
  process.stderr.write(
    `[sqlite] ${name}: skipped, the optional add-on better-sqlite3 is not built (${problem}); build it with: pnpm sqlite\n`,
  );
  describe.skip(name, body);
}
