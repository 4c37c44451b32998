import type { Approver, RunAgentConfig } from '@rxagent/core';
import type { TaskRuntime } from './task-runtime.js';

/**
 * One sub-agent: a run config of its own (model, system, tools, `maxSteps`, `stopWhen`
 * budgets…) and a description the parent model reads to choose it. Each call is a fresh
 * `runAgent` with an empty transcript; its scheduler defaults to the parent run's.
 *
 * @example
 * const scout: SubagentConfig = {
 *   description: 'Fast reconnaissance of a folder', model, system: 'Explore quickly; answer in 3 lines.',
 *   tools: [listTool, readTool], maxSteps: 5, stopWhen: tokenBudget(20_000),
 * };
 */
export interface SubagentConfig extends Omit<
  RunAgentConfig,
  'prompt' | 'messages' | 'signal' | 'runId' | 'steering$' | 'followUp$'
> {
  description: string;
}

/**
 * Options of `subagentTool`.
 *
 * @example
 * const options: SubagentToolOptions = { agents: { scout, worker }, maxConcurrency: 2, tasks: new TaskRuntime() };
 */
export interface SubagentToolOptions {
  /** The sub-agents by name (letters, digits, `_` and `-`). */
  agents: Record<string, SubagentConfig>;
  /** The tool's name (default `subagent`). */
  name?: string;
  /** Sub-runs of one parallel call running at once (default 4). */
  maxConcurrency?: number;
  /** How deep sub-agents may nest: 1 (default) lets a top-level run start sub-agents that cannot start their own. */
  maxDepth?: number;
  /** Sub-runs per top-level run, nested ones included (default 32). */
  maxSubRuns?: number;
  /** Needed for `background: true`: where background sub-runs are kept. */
  tasks?: TaskRuntime;
  /**
   * Decides approvals of background sub-runs (which outlive the call that started them).
   * Foreground sub-runs ask the parent run's approver. Without one, background calls that
   * need approval are refused (fail closed).
   */
  backgroundApprover?: Approver;
  /** The tool call's timeout in ms (default 600 000; the parent's `toolTimeoutMs` is for quick tools). */
  timeoutMs?: number;
}
