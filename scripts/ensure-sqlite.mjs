// Builds better-sqlite3, the optional native add-on of @rxagent/sessions' SqliteSession, for the
// SQLite tests (`pnpm sqlite`; CI runs it). `pnpm install` never builds it (pnpm-workspace.yaml
// lists it under ignoredBuiltDependencies), so a clone compiles nothing native unless asked:
// without the add-on the SQLite specs are skipped with one line saying so.
// Its own install script does the work: a prebuilt binary when one can be downloaded, else a
// build from source (python3, make and a C++ compiler; a minute or two).
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'packages', 'sessions', 'package.json'));

function problem() {
  try {
    const Database = require('better-sqlite3');
    new Database(':memory:').close();
    return undefined;
  } catch (error) {
    return error.message.split('\n')[0];
  }
}

const before = problem();
if (before === undefined) {
  console.log('[sqlite] better-sqlite3 is built.');
  process.exit(0);
}
const dir = dirname(require.resolve('better-sqlite3/package.json'));
const { version } = require('better-sqlite3/package.json');
console.log(`[sqlite] building better-sqlite3 ${version} (${before})…`);
const started = Date.now();
try {
  execFileSync('npm', ['run', 'install'], { cwd: dir, stdio: 'pipe', maxBuffer: 64 * 1024 * 1024 });
} catch (error) {
  process.stderr.write(`${error.stdout ?? ''}${error.stderr ?? ''}`.slice(-8000));
  console.error('[sqlite] the build failed (output above): it needs python3, make and a C++ compiler.');
  process.exit(1);
}
// A new process: this one cached the failed load.
const after = execFileSync(
  process.execPath,
  ['-e', "const D = require('better-sqlite3'); new D(':memory:').close(); console.log('ok')"],
  { cwd: join(root, 'packages', 'sessions'), encoding: 'utf8' },
).trim();
if (after !== 'ok') throw new Error('[sqlite] better-sqlite3 still does not load after its build.');
console.log(`[sqlite] better-sqlite3 ${version} built in ${Math.round((Date.now() - started) / 1000)} s.`);
