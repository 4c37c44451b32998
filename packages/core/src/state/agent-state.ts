import type { SerializedError } from '../errors/serialize-error.js';
import type { ToolOutcome, ToolResult } from '../events/agent-event.js';
import type { AgentMessage, AssistantMessage, Usage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';
import type { GuardrailEndEvent } from '../events/guardrail-events.js';
import type { StopReason, StopSignal } from '../events/stop-signal.js';
import type { PendingElicitation } from './reduce-elicitation.js';
import type { RunningGuardrail } from './reduce-guardrail.js';
import type { SubrunState } from './reduce-subrun.js';
import type { ContextUsage } from '../events/context-usage.js';

/**
 * Where a run is. `idle` is where the loop parks after `agent-end`; `done`, `cancelled` and
 * `error` are terminal and written by whoever owns the subscription (first one wins).
 *
 * @example
 * state$.pipe(selectPhase()).subscribe((phase: Phase) => statusBar.set(phase === 'llm-in-flight' ? 'thinking…' : phase));
 */
export type Phase =
  'starting' | 'llm-in-flight' | 'step-finished' | 'tool-executing' | 'idle' | 'done' | 'cancelled' | 'error';

/**
 * True for the terminal phases (`done`, `cancelled`, `error`).
 *
 * @example
 * state$.pipe(takeWhile((s) => !isTerminal(s.phase), true));
 */
export function isTerminal(phase: Phase): boolean {
  return phase === 'done' || phase === 'cancelled' || phase === 'error';
}

/**
 * A tool call between its `tool-start` and `tool-end`.
 *
 * @example
 * const tool: ActiveTool = { toolCallId: 'call_1', toolName: 'bash', args: { command: 'npm test' }, progress: 'PASS a.spec.ts' };
 */
export interface ActiveTool {
  toolCallId: string;
  toolName: string;
  args: unknown;
  /** The last progress it reported. */
  progress?: unknown;
}

/**
 * A tool call waiting for a person (between `approval-request` and `approval-end`).
 *
 * @example
 * state$.subscribe((s) => s.pendingApprovals.forEach((p: PendingApproval) => ask(p.toolName, p.args)));
 */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

/**
 * The state of a run, a pure fold of its events (`reduceAgentState`).
 *
 * @example
 * const { state$ } = withState(runAgent(config));
 * state$.subscribe((s) => render(s.phase, s.step, s.usage.totalTokens));
 */
export interface AgentState {
  phase: Phase;
  /** The current (1-based) step; 0 before the first model call. */
  step: number;
  runId?: string;
  /** The transcript: prior messages and every completed message of the run. */
  messages: readonly AgentMessage[];
  /** The assistant message being streamed, if any. */
  streamingMessage?: AssistantMessage;
  /** Ids of the tool calls running now, in start order. */
  pendingToolCalls: readonly string[];
  activeTools: readonly ActiveTool[];
  /** Results of this batch's calls that ended but are not in the transcript yet (by call id). */
  finishedTools: Readonly<Record<string, ToolResult>>;
  /** How each tool call of the run ended (its `tool-end`'s `outcome`), by call id. */
  toolOutcomes: Readonly<Record<string, ToolOutcome>>;
  pendingApprovals: readonly PendingApproval[];
  /** Elicitations waiting for a person (answer with `Agent.respond`). */
  pendingElicitations: readonly PendingElicitation[];
  /** Total usage of the runs folded into this state. */
  usage: Usage;
  stopReason?: StopReason;
  stopSignal?: StopSignal;
  error?: SerializedError;
  isRunning: boolean;
  /** A run with `output`: the partial answer while it streams, then the validated one. */
  output?: unknown;
  /** Retries of model calls so far in this run. */
  retries: number;
  /** Guardrail checks in progress. */
  guardrails: readonly RunningGuardrail[];
  /** The verdict of the last guardrail check that ended in this run. */
  lastGuardrailVerdict?: GuardrailEndEvent;
  /** How full the context is (the last `context-usage`; only with a context manager that reports it). */
  contextUsage?: ContextUsage;
  /** True while a context summary call runs (`summary-start` until `compaction`). */
  compacting?: boolean;
  /** The sub-runs of this run (from their `subrun` events), by sub-run id; their usage is in `usage` too. */
  subruns: Readonly<Record<string, SubrunState>>;
}

/**
 * The state before any event: phase `starting`, step 0, the given transcript.
 *
 * @example
 * const state = events.reduce(reduceAgentState, initialAgentState(priorMessages));
 */
export function initialAgentState(messages: readonly AgentMessage[] = []): AgentState {
  return {
    phase: 'starting',
    step: 0,
    messages,
    pendingToolCalls: [],
    activeTools: [],
    finishedTools: {},
    toolOutcomes: {},
    pendingApprovals: [],
    pendingElicitations: [],
    usage: emptyUsage(),
    isRunning: false,
    retries: 0,
    guardrails: [],
    subruns: {},
  };
}
