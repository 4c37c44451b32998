import type {
  AgentEvent,
  AgentMessage,
  AnyTool,
  ChatRequest,
  RunAgentConfig,
  StopReason,
  Usage,
} from '@rxagent/core';
import type { ScriptedTurnInput } from '@rxagent/testing';

/** The ten capabilities of issue 31, item 7: each mode's table lists exactly these. */
export const CAPABILITY_NAMES = [
  'tools in parallel',
  'approval',
  'steering',
  'follow-up',
  'guardrail trip',
  'compaction',
  'structured output',
  'sub-agent',
  'budget stop',
  'MCP tool',
] as const;

/** One of the capabilities. */
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

/** What every cell may use: components started once for the whole matrix. */
export interface CellEnv {
  /** The tools of a real MCP server (server-everything over stdio). */
  readonly mcpTools: readonly AnyTool[];
}

/** What a cell's run gave: the run's own events (a sub-run's unwrapped) and its end. */
export interface CellRun {
  readonly events: readonly AgentEvent[];
  readonly reason: StopReason;
  /** The transcript the run appended (its prompt first). */
  readonly messages: readonly AgentMessage[];
  readonly output?: unknown;
  readonly usage: Usage;
  /** What the cell's scripted model was asked, in order. */
  readonly requests: readonly ChatRequest[];
}

/** The run settings a cell adds (a sub-run takes the same ones from its sub-agent config). */
export type CellConfig = Omit<
  RunAgentConfig,
  'model' | 'prompt' | 'messages' | 'signal' | 'runId' | 'steering$' | 'followUp$' | 'approver'
>;

/**
 * One capability, defined once for every mode: the model's turns, the settings, what the mode
 * must do while it runs (approve, steer, follow up), and what the run must show.
 */
export interface Capability {
  /** The cell's scripted model turns (a fresh model for each run). */
  turns(): ScriptedTurnInput[];
  /** Settings for one run (called once per run: tools with per-run state are made here). */
  config?(env: CellEnv): CellConfig;
  /** The mode approves every approval request (an approver, or `agent.approve`). */
  approve?: true;
  /** The mode steers once, at the first event `at` accepts. */
  steer?: { at: (event: AgentEvent) => boolean; text: string };
  /** The mode queues this follow-up before the run would stop. */
  followUp?: string;
  /** The run's stop reason (default `completed`). */
  reason?: StopReason;
  check(run: CellRun): void;
}

/** The prompt every cell's run starts with. */
export const CELL_PROMPT = 'Go.';
