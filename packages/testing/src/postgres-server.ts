import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway PostgreSQL server started by `startPostgres()`.
 *
 * @example
 * const pg = await startPostgres();
 * console.log(pg.url); // postgres://rxagent@127.0.0.1:54321/postgres
 * await pg.stop();
 */
export interface PostgresServer {
  /** A connection URL for the `postgres` database as the superuser `rxagent` (no password, loopback only). */
  readonly url: string;
  readonly port: number;
  /** A URL for another database of this server (created with `createDatabase`). */
  urlFor(database: string): string;
  /** Creates a database (fails if it exists). */
  createDatabase(name: string): void;
  /** Stops the server (fast shutdown); `restart()` starts it again on the same port and data. */
  halt(): Promise<void>;
  /** Starts a halted server again. */
  restart(): Promise<void>;
  /** Stops the server and removes its data folder. */
  stop(): Promise<void>;
}

/**
 * Options of `startPostgres`.
 *
 * @example
 * await startPostgres({ port: 55432 });
 */
export interface StartPostgresOptions {
  /** Default: a free port on 127.0.0.1. */
  port?: number;
}

/** Where Debian's PostgreSQL binaries are (`/usr/lib/postgresql/<version>/bin`), newest first. */
function findBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions[0]) return join(root, versions[0], 'bin');
  throw new Error(
    "PostgreSQL is not installed: install Debian's server (apt-get install -y postgresql), which `pnpm test` " +
      'does by itself when it runs as root.',
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = (): boolean => typeof process.getuid === 'function' && process.getuid() === 0;

/** PostgreSQL refuses to run as root: as root, its programs run as Debian's `postgres` user. */
function asServerUser(bin: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
}

/**
 * Starts a throwaway PostgreSQL server (Debian's `postgresql` package) in a temporary folder on
 * a free loopback port, for tests and demos: trust authentication on 127.0.0.1 only, `fsync`
 * off. Stop it with `stop()`; a process that exits without stopping it leaves it to the OS's
 * temporary-file cleanup, so always stop it in `afterAll`.
 *
 * @example
 * const pg = await startPostgres();
 * try { await useDatabase(pg.url); } finally { await pg.stop(); }
 */
export async function startPostgres(options: StartPostgresOptions = {}): Promise<PostgresServer> {
  const bin = findBinDir();
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-pg-'));
  const data = join(dir, 'data');
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  chmodSync(dir, 0o700);
  const [initdb, initArgs] = asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'rxagent',
    '--auth=trust',
    '--no-sync',
    '-E',
    'UTF8',
    '--locale=C',
  ]);
  execFileSync(initdb, initArgs, { stdio: 'pipe', env: { PATH: process.env.PATH ?? '' } });
  const port = options.port ?? (await freePort());
  let child: ChildProcess | undefined;
  const ready = (): boolean => {
    try {
      execFileSync(join(bin, 'pg_isready'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'rxagent'], {
        stdio: 'ignore',
      });
      return true;
    } catch {
      return false;
    }
  };
  const start = async (): Promise<void> => {
    const [postgres, args] = asServerUser(join(bin, 'postgres'), [
      '-D',
      data,
      '-p',
      String(port),
      '-k',
      dir,
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
      '-c',
      'max_connections=300',
    ]);
    let log = '';
    const started = spawn(postgres, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: process.env.PATH ?? '' },
    });
    started.stderr?.on('data', (d: Buffer) => (log = (log + d.toString()).slice(-4000)));
    child = started;
    for (let i = 0; i < 200; i++) {
      if (started.exitCode !== null) throw new Error(`PostgreSQL did not start:\n${log}`);
      if (ready()) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`PostgreSQL did not accept connections on port ${port} within 10 s:\n${log}`);
  };
  const halt = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise<void>((r) => running.once('exit', () => r()));
    // SIGINT is PostgreSQL's fast shutdown. It goes to the postmaster itself (its pid file), since
    // `runuser` does not pass signals on.
    const pid = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0]);
    try {
      process.kill(pid, 'SIGINT');
    } catch {
      running.kill('SIGKILL');
    }
    await exited;
  };
  await start();
  const url = `postgres://rxagent@127.0.0.1:${port}/postgres`;
  return {
    url,
    port,
    urlFor: (database) => `postgres://rxagent@127.0.0.1:${port}/${encodeURIComponent(database)}`,
    createDatabase(name) {
      execFileSync(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'rxagent', name], {
        stdio: 'pipe',
      });
    },
    halt,
    restart: start,
    async stop() {
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
