// Makes sure Debian's PostgreSQL server binaries are installed, for the durable tests and
// `pnpm demo:durable` (they start throwaway servers of their own with `startPostgres()` from
// @rxagent/testing; the cluster Debian's package may create is not used).
// It only acts when /usr/lib/postgresql/<version>/bin/postgres is missing and apt-get can run
// (as root); otherwise it says what to do and leaves startPostgres to fail with its own message.
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
    `[ensure-postgres] no PostgreSQL server under ${ROOT}: install Debian's (sudo apt-get install -y postgresql) ` +
      'for the durable tests and pnpm demo:durable.',
  );
  process.exit(0);
}
console.log('[ensure-postgres] installing Debian postgresql for the durable tests and demo (apt-get)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'postgresql'], {
  stdio: 'inherit',
  env,
});
