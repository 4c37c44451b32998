/**
 * What the demo's tools report as progress: which worker does what. It travels through the
 * run's event log as data, so the watching process sees where each call runs, and when the
 * call's side effect has happened (`effect-done`: the moment the demo kills the worker in
 * `--kill-while tool`).
 *
 * @example
 * const p: WorkerProgress = { worker: 'worker-a', stage: 'effect-done', text: 'appended "built 1.4.2"' };
 */
export interface WorkerProgress {
  worker: string;
  stage: 'started' | 'effect-done' | 'skipped';
  text: string;
}

/**
 * Narrows a `tool-update` progress value to a `WorkerProgress`.
 *
 * @example
 * if (event.type === 'tool-update' && isWorkerProgress(event.progress)) console.log(event.progress.worker);
 */
export function isWorkerProgress(value: unknown): value is WorkerProgress {
  const p = value as Partial<WorkerProgress> | null;
  return typeof p === 'object' && p !== null && typeof p.worker === 'string' && typeof p.text === 'string';
}
