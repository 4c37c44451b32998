export { startWorker } from './worker.js';
export type { DurableWorker, WorkerOptions } from './worker.js';
export { durableRuns } from './durable-runs.js';
export type { DurableRunInfo, DurableRuns, DurableRunsOptions } from './durable-runs.js';
export type { DurableRunSpec } from './run-spec.js';
export { durableTool, idempotencyKey } from './durable-tool.js';
export type { DurableTool, ToolDurability } from './durable-tool.js';
export type { WorkerRegistrations } from './registry.js';
export { INTERRUPTED_TEXT } from './durable-tool-step.js';
export {
  DurableRunEndedError,
  DurableRunSpecError,
  DurableUnavailableError,
  DurableUsageError,
} from './durable-errors.js';
export { DurableAgent } from './durable-agent.js';
export type { DurableAgentConfig } from './durable-agent.js';
export { childRunId, durableSubagent } from './durable-subagent.js';
export type { DurableSubagentOptions } from './durable-subagent.js';
