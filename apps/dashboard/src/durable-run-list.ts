import { DBOSClient } from '@dbos-inc/dbos-sdk';
import type { DurableRunListing } from './durable-follow.js';

/**
 * Lists durable runs from the workers' database: the newest `rxagent-run` workflows of the
 * `rxagent` DBOS application (how `@rxagent/durable` names them). Loaded by `main.ts` only
 * with `--durable`, so DBOS stays out of every other dashboard.
 *
 * @example
 * const lister = await durableRunLister(databaseUrl);
 * console.log(await lister.list()); // [{ runId: 'ticket-1234', status: 'PENDING', createdAt: … }]
 * await lister.close();
 */
export async function durableRunLister(
  databaseUrl: string,
  options: { limit?: number } = {},
): Promise<{ list(): Promise<DurableRunListing[]>; close(): Promise<void> }> {
  const client = await DBOSClient.create({ systemDatabaseUrl: databaseUrl, applicationName: 'rxagent' });
  return {
    list: async () =>
      (
        await client.listWorkflows({
          workflowName: 'rxagent-run',
          sortDesc: true,
          limit: options.limit ?? 50,
        })
      ).map((w) => ({ runId: w.workflowID, status: String(w.status), createdAt: Number(w.createdAt) })),
    close: () => client.destroy(),
  };
}
