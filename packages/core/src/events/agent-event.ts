import type { SerializedError } from '../errors/serialize-error.js';
import type { MessageDelta } from './message-delta.js';
import type { AgentMessage, AssistantMessage, ImagePart, TextPart, Usage } from '../messages/types.js';
import type { StopReason, StopSignal } from './stop-signal.js';
import type { GuardrailEndEvent, GuardrailStartEvent } from './guardrail-events.js';
import type { SubrunEvent } from './subrun-event.js';
import type { ContextUsageEvent, SummaryStartEvent, SummaryUpdateEvent } from './context-events.js';
import type { ElicitationEvent } from './elicitation-events.js';
import type { StepResult } from './step-result.js';

export type { StepResult } from './step-result.js';

/**
 * What a tool call produced: content the model reads, and whether it is an error.
 *
 * @example
 * const result: ToolResult = { content: [{ type: 'text', text: '21°C' }], isError: false };
 */
export interface ToolResult {
  content: (TextPart | ImagePart)[];
  isError: boolean;
  /** Model usage spent on the call's behalf (a sub-agent's calls); added to the run's usage. */
  usage?: Usage;
  /** The class of what the tool threw (`TypeError`), or `timeout`. */
  errorType?: string;
}

export type { MessageDelta } from './message-delta.js';

/**
 * The run was subscribed.
 *
 * @example
 * const e: AgentStartEvent = { type: 'agent-start', runId: 'r1' };
 */
export interface AgentStartEvent {
  type: 'agent-start';
  runId: string;
  /** The transcript the run starts from (`config.messages`, repaired), so a fold starts from it. */
  messages?: readonly AgentMessage[];
}
/**
 * A model call is about to be made (step is 1-based).
 *
 * @example
 * const e: TurnStartEvent = { type: 'turn-start', step: 1 };
 */
export interface TurnStartEvent {
  type: 'turn-start';
  step: number;
}
/**
 * A message enters the transcript (or, for the assistant, starts streaming).
 *
 * @example
 * const e: MessageStartEvent = { type: 'message-start', message: userMessage('List the files') };
 */
export interface MessageStartEvent {
  type: 'message-start';
  message: AgentMessage;
}
/**
 * One streamed delta of the assistant message; `message` is the partial message so far.
 *
 * @example
 * if (event.type === 'message-update' && event.delta.kind === 'text') process.stdout.write(event.delta.text);
 */
export interface MessageUpdateEvent {
  type: 'message-update';
  message: AssistantMessage;
  delta: MessageDelta;
}
/**
 * A message is complete and part of the transcript.
 *
 * @example
 * if (event.type === 'message-end' && event.message.role === 'assistant') console.log(event.message.usage);
 */
export interface MessageEndEvent {
  type: 'message-end';
  message: AgentMessage;
}
/**
 * A tool call starts its pipeline (validation, approval, execution).
 *
 * @example
 * const e: ToolStartEvent = { type: 'tool-start', toolCallId: 'call_1', toolName: 'read', args: { path: 'README.md' } };
 */
export interface ToolStartEvent {
  type: 'tool-start';
  toolCallId: string;
  toolName: string;
  args: unknown;
}
/**
 * A tool call reports progress, or its preview before approval.
 *
 * @example
 * const e: ToolUpdateEvent = { type: 'tool-update', toolCallId: 'call_1', toolName: 'bash', kind: 'progress', progress: 'npm i' };
 */
export interface ToolUpdateEvent {
  type: 'tool-update';
  toolCallId: string;
  toolName: string;
  kind: 'progress' | 'preview';
  progress?: unknown;
  preview?: unknown;
}
/**
 * Why a tool call ended as it did: it ran (`executed`) or failed while running or being
 * validated (`failed`: it threw, returned an error result, had invalid arguments or an unknown
 * name); it never ran because a gate, a guardrail or the breaker refused it (`denied`), a
 * person rejected it (`rejected`), an earlier call stopped the batch or a steering message came
 * first (`skipped`), a steering message or the run's end cut it off (`cancelled`), a worker
 * crashed while it ran (`interrupted`), or it ran out of time (`timed-out`).
 *
 * @example
 * const noRealResult = (o: ToolOutcome) => o !== 'executed' && o !== 'failed';
 */
export type ToolOutcome =
  'executed' | 'failed' | 'denied' | 'rejected' | 'skipped' | 'cancelled' | 'interrupted' | 'timed-out';

/**
 * A tool call ended (events in completion order; results enter the transcript in call order).
 * `outcome` says why it has the result it has; `result` is what the model reads.
 *
 * @example
 * const e: ToolEndEvent = {
 *   type: 'tool-end', toolCallId: 'call_1', toolName: 'read', args: { path: 'README.md' },
 *   result: { content: [{ type: 'text', text: '# rxagent' }], isError: false }, isError: false, outcome: 'executed',
 * };
 */
export interface ToolEndEvent {
  type: 'tool-end';
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: ToolResult;
  isError: boolean;
  outcome: ToolOutcome;
}
/**
 * A tool call waits for a person's decision.
 *
 * @example
 * const e: ApprovalRequestEvent = {
 *   type: 'approval-request', toolCallId: 'call_1', toolName: 'bash', args: { command: 'ls' },
 * };
 */
export interface ApprovalRequestEvent {
  type: 'approval-request';
  toolCallId: string;
  toolName: string;
  args: unknown;
}
/**
 * A tool call was approved or rejected.
 *
 * @example
 * const e: ApprovalEndEvent = {
 *   type: 'approval-end', toolCallId: 'call_1', toolName: 'bash', approved: false, reason: 'Not now',
 * };
 */
export interface ApprovalEndEvent {
  type: 'approval-end';
  toolCallId: string;
  toolName: string;
  approved: boolean;
  reason?: string;
}
/**
 * A model call and its tools are done.
 *
 * @example
 * if (event.type === 'turn-end') console.log(event.step.step, event.step.finishReason, event.step.usage.totalTokens);
 */
export interface TurnEndEvent {
  type: 'turn-end';
  step: StepResult;
}
/**
 * A failed model call will be retried after `delayMs`; the partial message is discarded.
 *
 * @example
 * const e: RetryEvent = {
 *   type: 'retry', attempt: 1, delayMs: 2000, error: { name: 'RateLimitError', message: 'Too many requests', status: 429 },
 * };
 */
export interface RetryEvent {
  type: 'retry';
  attempt: number;
  delayMs: number;
  error: SerializedError;
}
/**
 * The context was rewritten before a model call.
 *
 * @example
 * const e: CompactionEvent = {
 *   type: 'compaction', strategy: 'full-summary', tokensBefore: 180_000, tokensAfter: 20_000, summarized: 42,
 * };
 */
export interface CompactionEvent {
  type: 'compaction';
  strategy: string;
  tokensBefore: number;
  tokensAfter: number;
  summarized: number;
  /** Usage of the summary call, if one was made (counted in the run's totals). */
  usage?: Usage;
}
/**
 * Something was ignored or recovered (a predicate threw, the transcript was repaired…).
 *
 * @example
 * const e: WarningEvent = { type: 'warning', message: 'Repaired the transcript: 1 missing tool result' };
 */
export interface WarningEvent {
  type: 'warning';
  message: string;
}
/**
 * The loop stopped by itself. `messages` are those this run appended.
 *
 * @example
 * if (event.type === 'agent-end') console.log(event.reason, event.steps, event.usage.totalTokens);
 */
export interface AgentEndEvent {
  type: 'agent-end';
  reason: StopReason;
  signal: StopSignal;
  messages: AgentMessage[];
  usage: Usage;
  steps: number;
  /** The validated final answer of a run with `output` (see `AgentEndEventOf` for its type). */
  output?: unknown;
}

/**
 * The partial final answer of a run with `output`, parsed from the JSON streamed so far
 * (incomplete strings, arrays and objects included); the validated answer comes on `agent-end`.
 *
 * @example
 * if (event.type === 'output-update') render(event.output);
 */
export interface OutputUpdateEvent {
  type: 'output-update';
  output: unknown;
}

/**
 * Everything a run emits, tagged by `type`. Every member is plain JSON, so a run can be sent
 * over the wire or logged as it is.
 *
 * @example
 * runAgent(config).subscribe((event) => {
 *   if (event.type === 'message-update' && event.delta.kind === 'text') process.stdout.write(event.delta.text);
 * });
 */
export type AgentEvent =
  | AgentStartEvent
  | TurnStartEvent
  | MessageStartEvent
  | MessageUpdateEvent
  | MessageEndEvent
  | ToolStartEvent
  | ToolUpdateEvent
  | ToolEndEvent
  | ApprovalRequestEvent
  | ApprovalEndEvent
  | TurnEndEvent
  | RetryEvent
  | CompactionEvent
  | ContextUsageEvent
  | SummaryStartEvent
  | SummaryUpdateEvent
  | WarningEvent
  | OutputUpdateEvent
  | GuardrailStartEvent
  | GuardrailEndEvent
  | SubrunEvent
  | ElicitationEvent
  | AgentEndEvent;

/**
 * The `type` tags of `AgentEvent`.
 *
 * @example
 * const shown: AgentEventType[] = ['message-update', 'tool-start', 'tool-end'];
 */
export type AgentEventType = AgentEvent['type'];
