/**
 * What a worker process of the demo is told, as one JSON argument (no secrets: the database
 * is a throwaway local server with trust authentication).
 *
 * @example
 * const settings: WorkerSettings = { databaseUrl: pg.url, workerId: 'worker-a', dir: '/tmp/release' };
 */
export interface WorkerSettings {
  databaseUrl: string;
  workerId: string;
  /** The folder of the side-effect files. */
  dir: string;
  /** A worker whose liveness lock stays free this long is dead (default 1000 ms). */
  deadAfterMs?: number;
}

/**
 * Reads the settings argument of a worker process; a missing or bad one is an error saying what
 * was expected.
 *
 * @example
 * const settings = parseWorkerSettings(process.argv[2]);
 */
export function parseWorkerSettings(arg: string | undefined): WorkerSettings {
  let value: Partial<WorkerSettings>;
  try {
    value = JSON.parse(arg ?? '') as Partial<WorkerSettings>;
  } catch {
    throw new Error('worker-main.js takes one JSON argument: {"databaseUrl","workerId","dir"}.');
  }
  for (const key of ['databaseUrl', 'workerId', 'dir'] as const) {
    if (typeof value?.[key] !== 'string' || value[key] === '') {
      throw new Error(`worker-main.js: the settings need "${key}" (a non-empty string).`);
    }
  }
  return value as WorkerSettings;
}
