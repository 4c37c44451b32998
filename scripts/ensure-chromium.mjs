// Makes sure Debian's Chromium is installed for the dashboard's browser test.
// It only acts when /usr/bin/chromium is missing and apt-get can run (as root); otherwise it
// says what to do and leaves the browser test to fail with its own clear message.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

if (existsSync(CHROMIUM)) process.exit(0);
const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = existsSync('/usr/bin/apt-get');
if (!isRoot || !hasApt) {
  console.warn(
    `[ensure-chromium] ${CHROMIUM} is missing: install Debian's Chromium (sudo apt-get install -y chromium) ` +
      'for the dashboard browser test.',
  );
  process.exit(0);
}
console.log('[ensure-chromium] installing Debian chromium for the dashboard browser test (apt-get)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execFileSync('apt-get', ['update', '-q'], { stdio: 'inherit', env });
execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium'], {
  stdio: 'inherit',
  env,
});
