import type { DurableRunListing } from './durable-follow.js';

/**
 * Lists durable runs from the workers' database, newest first (`DurableRuns.listRuns`).
 *
 * @example
 * const lister = durableRunLister(runs);
 * console.log(await lister.list()); // [{ runId: 'ticket-1234', status: 'PENDING', createdAt: … }]
 */
export function durableRunLister(
  runs: { listRuns(options?: { limit?: number }): Promise<DurableRunListing[]> },
  options: { limit?: number } = {},
): { list(): Promise<DurableRunListing[]> } {
  return { list: () => runs.listRuns({ limit: options.limit ?? 50 }) };
}
