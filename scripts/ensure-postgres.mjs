// Makes sure Debian's PostgreSQL server is installed for the durable-run tests, which start a
// throwaway server of their own (startPostgres in @rxagent/testing). It only acts when no
// server binary is found and apt-get can run (as root); otherwise it says what to do and leaves
// the durable tests to fail with their own clear message.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = '/usr/lib/postgresql';
const installed =
  existsSync(ROOT) && readdirSync(ROOT).some((version) => existsSync(join(ROOT, version, 'bin', 'postgres')));
if (installed) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
  console.warn(
    "[ensure-postgres] no PostgreSQL server found under /usr/lib/postgresql: install Debian's (sudo apt-get install -y postgresql) " +
      'for the durable-run tests.',
  );
  process.exit(0);
}
console.log('[ensure-postgres] installing Debian postgresql for the durable-run tests (apt-get)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'postgresql'], {
  stdio: 'inherit',
  env,
});
