import {
  assistantText,
  contentText,
  isTerminal,
  type AgentState,
  type Phase,
  type StopReason,
} from '@rxagent/core';
import { toContextGauge, type ContextGaugeView } from './context-gauge.js';
import type { ForkView } from './fork-view.js';
import { toElicitationView, type ElicitationView } from './elicitation-view.js';
import type { SubrunView } from './subrun-view.js';
import { clipText } from './text-limits.js';
import {
  argumentFields,
  describeProgress,
  summarizeArgs,
  type ArgumentField,
  type ProgressView,
} from './value-summary.js';

/**
 * A tool call running now, as the page shows it.
 *
 * @example
 * const view: ToolView = { toolCallId: 'c1', toolName: 'read_file', args: '{"path":"a.ts"}', progress: { label: '1/3', ratio: 0.33 } };
 */
export interface ToolView {
  toolCallId: string;
  toolName: string;
  /** The arguments as short JSON text. */
  args: string;
  progress?: ProgressView;
  /** Sub-agent runs working for this call (the `subagent` tool), nested under it. */
  subruns?: SubrunView[];
  /** What this call's sub-runs spent so far (from the state fold), when it runs any. */
  tokens?: number;
}

/**
 * A tool call waiting for a person, as the page shows it.
 *
 * @example
 * const view: ApprovalView = { toolCallId: 'c2', toolName: 'write_file', args: '{"path":"a.ts"}', fields: [{ name: 'path', value: 'a.ts' }] };
 */
export interface ApprovalView {
  toolCallId: string;
  toolName: string;
  /** The arguments as short JSON text. */
  args: string;
  /** Every argument in full (clipped only past `ARGUMENT_LIMIT`): what the person approves. */
  fields: ArgumentField[];
}

/**
 * A compact, JSON-safe view of one run's `AgentState`: what a card of the page needs, and
 * never the whole transcript (a snapshot is sent many times a second while text streams).
 *
 * @example
 * const { phase, step, tokens }: RunSnapshot = toRunSnapshot('run-1', 'chat #1', agent.state$.value);
 */
export interface RunSnapshot {
  id: string;
  label: string;
  phase: Phase;
  terminal: boolean;
  step: number;
  /**
   * The run's usage as the state fold counts it (model calls, summary calls, sub-runs); the
   * cost only when every part was priced (`usage.costUsd`).
   */
  tokens: { input: number; output: number; total: number; costUsd?: number };
  activeTools: ToolView[];
  pendingApprovals: ApprovalView[];
  /** Tools asking a person for information (forms). */
  pendingElicitations: ElicitationView[];
  /** The tail of the text being streamed now ('' when nothing streams). */
  streamingText: string;
  /** The last assistant text of the transcript (head, truncated). */
  lastAnswer: string;
  /** The last user message (head, truncated). */
  prompt: string;
  retries: number;
  stopReason?: StopReason;
  /** `Name: message` of the error that ended the run. */
  error?: string;
  /** How full the context is (runs with a context manager that measures it). */
  context?: ContextGaugeView;
  /** The dashboard recorded the run: it can be forked (_Fork here_) and compared. */
  forkable?: boolean;
  /** Where a forked run came from (`POST /runs/:id/fork`). */
  fork?: ForkView;
}

/**
 * Limits of the text fields of a snapshot.
 *
 * @example
 * toRunSnapshot('run-1', 'chat', state, { streamTailChars: 200 });
 */
export interface SnapshotLimits {
  /** Characters kept from the end of the streaming text (default 600). */
  streamTailChars?: number;
  /** Characters kept from the start of the last answer (default 1200). */
  answerChars?: number;
  /** Characters kept from the start of the prompt (default 200). */
  promptChars?: number;
}

/**
 * The page's view of a run's state. Pure: the same state gives the same snapshot.
 *
 * @example
 * const snapshot = toRunSnapshot('run-1', 'research #1', agent.state$.value);
 * res.end(JSON.stringify(snapshot)); // { id: 'run-1', phase: 'llm-in-flight', step: 1, … }
 */
export function toRunSnapshot(
  id: string,
  label: string,
  state: AgentState,
  limits: SnapshotLimits = {},
): RunSnapshot {
  const terminal = isTerminal(state.phase);
  const snapshot: RunSnapshot = {
    id,
    label: clipText(label),
    phase: state.phase,
    terminal,
    step: state.step,
    tokens: {
      input: state.usage.inputTokens,
      output: state.usage.outputTokens,
      total: state.usage.totalTokens,
    },
    // A terminal state has no live calls (terminate clears them); guard anyway for foreign states.
    activeTools: terminal ? [] : state.activeTools.map(toToolView),
    pendingApprovals: terminal
      ? []
      : state.pendingApprovals.map((a) => ({
          toolCallId: a.toolCallId,
          toolName: clipText(a.toolName),
          args: summarizeArgs(a.args),
          fields: argumentFields(a.args),
        })),
    pendingElicitations: terminal ? [] : state.pendingElicitations.map(toElicitationView),
    streamingText: tail(assistantText(state.streamingMessage), limits.streamTailChars ?? 600),
    lastAnswer: head(lastAssistantText(state), limits.answerChars ?? 1200),
    prompt: head(lastPrompt(state), limits.promptChars ?? 200),
    retries: state.retries,
  };
  if (state.usage.costUsd !== undefined) snapshot.tokens.costUsd = state.usage.costUsd;
  if (state.stopReason !== undefined) snapshot.stopReason = state.stopReason;
  if (state.error) snapshot.error = clipText(`${state.error.name}: ${state.error.message}`);
  const context = toContextGauge(state);
  if (context) snapshot.context = context;
  return snapshot;
}

function toToolView(tool: AgentState['activeTools'][number]): ToolView {
  const view: ToolView = {
    toolCallId: tool.toolCallId,
    toolName: clipText(tool.toolName),
    args: summarizeArgs(tool.args),
  };
  const progress = describeProgress(tool.progress);
  if (progress) view.progress = progress;
  return view;
}

function lastAssistantText(state: AgentState): string {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const text = assistantText(state.messages[i]);
    if (text.trim() !== '') return text;
  }
  return '';
}

function lastPrompt(state: AgentState): string {
  for (let i = state.messages.length - 1; i >= 0; i--) {
    const message = state.messages[i];
    if (message?.role === 'user') return contentText(message);
  }
  return '';
}

function tail(text: string, max: number): string {
  return text.length <= max ? text : '…' + text.slice(text.length - max + 1);
}

function head(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max - 1) + '…';
}
