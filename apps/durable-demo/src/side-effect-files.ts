import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The files the demo's tools write to, in the demo's folder. */
export const RELEASE_LOG = 'release-log.txt';
export const NOTIFICATIONS = 'notifications.txt';
/** Not a side effect of a tool: each model call a worker makes, `step <n> (<worker>)`. */
export const MODEL_CALLS = 'model-calls.txt';

/**
 * The lines of a side-effect file. Each line starts with the key of the tool call that wrote
 * it (`<run id>:<call id>`), so the demo can count how often each call took effect.
 *
 * @example
 * readEffects(join(dir, RELEASE_LOG)); // ['release-1.4.2:call_2 built 1.4.2 (worker-a)', …]
 */
export function readEffects(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter((l) => l !== '')
    : [];
}

/**
 * Appends one effect line for a call key.
 *
 * @example
 * writeEffect(join(dir, NOTIFICATIONS), 'release-1.4.2:call_1', 'Release 1.4.2 started (worker-a)');
 */
export function writeEffect(file: string, key: string, text: string): void {
  appendFileSync(file, `${key} ${text}\n`);
}

/**
 * How many lines each call key wrote, over the demo's side-effect files in `dir`.
 *
 * @example
 * effectCounts(dir); // { 'release-1.4.2:call_1': 1, 'release-1.4.2:call_2': 1, … }
 */
export function effectCounts(dir: string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const line of [...readEffects(join(dir, NOTIFICATIONS)), ...readEffects(join(dir, RELEASE_LOG))]) {
    const key = line.split(' ', 1)[0] ?? '';
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}
