import { DBOS } from '@dbos-inc/dbos-sdk';
import { currentOwnerXid } from '@dbos-inc/dbos-sdk/internal/context';
import { runAgent, type StopReason } from '@rxagent/core';
import { durableRunConfig, type ConfigEnv } from './durable-config.js';
import type { AgentEndEvent } from '@rxagent/core/events';
import { DurableUsageError } from './durable-errors.js';
import { EventLogWriter } from './event-log.js';
import { RunControl } from './run-control.js';
import { RunRecords } from './run-records.js';
import type { DurableRunSpec } from './run-spec.js';

/** The name under which every worker registers the run workflow. */
export const RUN_WORKFLOW = 'rxagent-run';

/** What the workflow returns (the full result is in the event log: `runResult(id)`). */
export interface RunSummary {
  reason: StopReason;
  steps: number;
}

/** What a worker gives the workflow: its registry, its database pool, its live runs. */
export interface WorkflowEnv extends ConfigEnv {
  active: Map<string, RunControl>;
}

/**
 * The body of a durable run: the ordinary `runAgent` loop with its two seams made durable (the
 * model through `durableModel`, a record per call in the order the calls come, one at a time;
 * tools through `durableToolStep` and approvals through `durableApprover`, rows keyed by the
 * run-unique call id, so tool calls may run in parallel and finish in any order), its events
 * written to the run's log. The execution reads the run's records once, when it starts.
 */
export async function executeRun(env: WorkflowEnv, spec: DurableRunSpec): Promise<RunSummary> {
  const runId = DBOS.workflowID;
  if (!runId) throw new DurableUsageError('executeRun runs only as the DBOS workflow of a durable run.');
  const model = env.registry.models.get(spec.model);
  if (!model) {
    throw new DurableUsageError(
      `This worker does not register the model "${spec.model}": every worker must register the same models and tools.`,
    );
  }
  const ownerXid = currentOwnerXid(runId);
  if (ownerXid === undefined) throw new DurableUsageError('executeRun found no DBOS ownership token.');
  const control = new RunControl(runId, new EventLogWriter(env.pool, runId, model.secrets));
  env.active.set(runId, control);
  try {
    const records = new RunRecords(control, env.pool);
    await records.load();
    const config = durableRunConfig(env, spec, control, records, ownerXid);
    const end = await new Promise<AgentEndEvent | undefined>((resolve, reject) => {
      let last: AgentEndEvent | undefined;
      control.fenced.then(() => resolve(undefined), reject);
      control.subscription = runAgent(config).subscribe({
        next: (event) => {
          control.log.append(event);
          if (event.type === 'agent-end') last = event;
        },
        error: (error: unknown) => {
          control.log.appendError(error);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        complete: () => resolve(last),
      });
    }).finally(() => control.log.flush());
    if (!end) {
      // Fenced: another worker owns the run now. Never settle, so DBOS records nothing from here.
      return await new Promise<RunSummary>(() => undefined);
    }
    return { reason: end.reason, steps: end.steps };
  } finally {
    env.active.delete(runId);
  }
}
