import { DBOS } from '@dbos-inc/dbos-sdk';
import { runAgent, type ChatModel, type RunAgentConfig, type StopReason } from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import type { Pool } from 'pg';
import { durableApprover } from './durable-approver.js';
import { durableModel } from './durable-model.js';
import type { DurableTool } from './durable-tool.js';
import { durableToolStep } from './durable-tool-step.js';
import { DurableUsageError } from './durable-errors.js';
import { EventLogWriter } from './event-log.js';
import type { EventListener } from './event-listener.js';
import { RunControl } from './run-control.js';
import type { DurableRunSpec } from './run-spec.js';

/** The name under which every worker registers the run workflow. */
export const RUN_WORKFLOW = 'rxagent-run';

/** Default wait of a durable approval: 7 days. */
const APPROVAL_TIMEOUT_MS = 7 * 24 * 3600 * 1000;

/** What the workflow returns (the full result is in the event log: `runResult(id)`). */
export interface RunSummary {
  reason: StopReason;
  steps: number;
}

/** What a worker gives the workflow: its registry, its database pool, its live runs. */
export interface WorkflowEnv {
  pool: Pool;
  models: ReadonlyMap<string, ChatModel>;
  tools: ReadonlyMap<string, DurableTool>;
  active: Map<string, RunControl>;
  /** Notifications of decisions stored for this worker's runs. */
  decisions: EventListener;
}

/**
 * The body of a durable run: the ordinary `runAgent` loop with its two seams made durable (the
 * model through `durableModel`, a DBOS step per call; tools through `durableToolStep` and
 * approvals through `durableApprover`, rows keyed by the run-unique call id), its events
 * written to the run's log. DBOS matches a replay's steps by the order they are issued: only
 * model calls are DBOS steps, and they come one at a time, so tool calls may run in parallel
 * (`toolConcurrency`) and finish in any order.
 */
export async function executeRun(env: WorkflowEnv, spec: DurableRunSpec): Promise<RunSummary> {
  const runId = DBOS.workflowID;
  if (!runId) throw new DurableUsageError('executeRun runs only as the DBOS workflow of a durable run.');
  const model = env.models.get(spec.model);
  const tools = (spec.tools ?? []).map((name) => env.tools.get(name));
  if (!model || tools.some((t) => t === undefined)) {
    const missing = [spec.model, ...(spec.tools ?? [])].filter(
      (n) => !env.models.has(n) && !env.tools.has(n),
    );
    throw new DurableUsageError(
      `This worker does not register ${missing.map((n) => `"${n}"`).join(', ')}: every worker must register the same models and tools.`,
    );
  }
  const control = new RunControl(runId, new EventLogWriter(env.pool, runId, model.secrets));
  env.active.set(runId, control);
  const durabilityOf = (name: string) => env.tools.get(name)?.durability ?? 'at-most-once';
  const config: RunAgentConfig = {
    runId,
    model: durableModel(model, control),
    tools: tools.map((t) => (t as DurableTool).tool),
    middlewares: [durableToolStep(durabilityOf, control, env.pool)],
    approver: durableApprover(
      spec.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS,
      control,
      env.pool,
      env.decisions,
    ),
    ...(spec.toolConcurrency !== undefined ? { toolConcurrency: spec.toolConcurrency } : {}),
    signal: control.abort.signal,
    ...(spec.system !== undefined ? { system: spec.system } : {}),
    ...(spec.prompt !== undefined ? { prompt: spec.prompt } : {}),
    ...(spec.messages !== undefined ? { messages: spec.messages } : {}),
    ...(spec.maxSteps !== undefined ? { maxSteps: spec.maxSteps } : {}),
    ...(spec.maxRetries !== undefined ? { maxRetries: spec.maxRetries } : {}),
    ...(spec.retryBackoff !== undefined ? { retryBackoff: spec.retryBackoff } : {}),
    ...(spec.toolTimeoutMs !== undefined ? { toolTimeoutMs: spec.toolTimeoutMs } : {}),
    ...(spec.approvalRequired !== undefined ? { approvalRequired: spec.approvalRequired } : {}),
    ...(spec.maxTokens !== undefined ? { maxTokens: spec.maxTokens } : {}),
    ...(spec.temperature !== undefined ? { temperature: spec.temperature } : {}),
  };
  try {
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
