import type { SerializedError } from '../errors/serialize-error.js';
import type {
  AgentMessage,
  AssistantMessage,
  FinishReason,
  ImagePart,
  TextPart,
  ToolCallPart,
  ToolResultMessage,
  Usage,
} from '../messages/types.js';
import type { StopReason, StopSignal } from '../stop/stop-signal.js';

/**
 * What one turn (a model call and its tools) produced.
 *
 * @example
 * const last: StepResult = agentEnd.steps; // count; per-step results come with each turn-end
 */
export interface StepResult {
  step: number;
  message: AssistantMessage;
  toolCalls: ToolCallPart[];
  toolResults: ToolResultMessage[];
  usage: Usage;
  finishReason: FinishReason;
}

/**
 * What a tool call produced: content the model reads, and whether it is an error.
 *
 * @example
 * const result: ToolResult = { content: [{ type: 'text', text: '21°C' }], isError: false };
 */
export interface ToolResult {
  content: (TextPart | ImagePart)[];
  isError: boolean;
}

/** A streamed piece of the assistant message. */
export interface MessageDelta {
  kind: 'text' | 'thinking' | 'toolcall';
  text: string;
  /** Position of the content part in the message. */
  index: number;
}

/** The run was subscribed. */
export interface AgentStartEvent {
  type: 'agent-start';
  runId: string;
}
/** A model call is about to be made (step is 1-based). */
export interface TurnStartEvent {
  type: 'turn-start';
  step: number;
}
/** A message enters the transcript (or, for the assistant, starts streaming). */
export interface MessageStartEvent {
  type: 'message-start';
  message: AgentMessage;
}
/** One streamed delta of the assistant message; `message` is the partial message so far. */
export interface MessageUpdateEvent {
  type: 'message-update';
  message: AssistantMessage;
  delta: MessageDelta;
}
/** A message is complete and part of the transcript. */
export interface MessageEndEvent {
  type: 'message-end';
  message: AgentMessage;
}
/** A tool call starts its pipeline (validation, approval, execution). */
export interface ToolStartEvent {
  type: 'tool-start';
  toolCallId: string;
  toolName: string;
  args: unknown;
}
/** A tool call reports progress, or its preview before approval. */
export interface ToolUpdateEvent {
  type: 'tool-update';
  toolCallId: string;
  toolName: string;
  kind: 'progress' | 'preview';
  progress?: unknown;
  preview?: unknown;
}
/** A tool call ended (events in completion order; results enter the transcript in call order). */
export interface ToolEndEvent {
  type: 'tool-end';
  toolCallId: string;
  toolName: string;
  args: unknown;
  result: ToolResult;
  isError: boolean;
}
/** A tool call waits for a person's decision. */
export interface ApprovalRequestEvent {
  type: 'approval-request';
  toolCallId: string;
  toolName: string;
  args: unknown;
}
/** A tool call was approved or rejected. */
export interface ApprovalEndEvent {
  type: 'approval-end';
  toolCallId: string;
  toolName: string;
  approved: boolean;
  reason?: string;
}
/** A model call and its tools are done. */
export interface TurnEndEvent {
  type: 'turn-end';
  step: StepResult;
}
/** A failed model call will be retried after `delayMs`; the partial message is discarded. */
export interface RetryEvent {
  type: 'retry';
  attempt: number;
  delayMs: number;
  error: SerializedError;
}
/** The context was rewritten before a model call. */
export interface CompactionEvent {
  type: 'compaction';
  strategy: string;
  tokensBefore: number;
  tokensAfter: number;
  summarized: number;
}
/** Something was ignored or recovered (a predicate threw, the transcript was repaired…). */
export interface WarningEvent {
  type: 'warning';
  message: string;
}
/** The loop stopped by itself. `messages` are those this run appended. */
export interface AgentEndEvent {
  type: 'agent-end';
  reason: StopReason;
  signal: StopSignal;
  messages: AgentMessage[];
  usage: Usage;
  steps: number;
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
  | WarningEvent
  | AgentEndEvent;

/** The `type` tags of `AgentEvent`. */
export type AgentEventType = AgentEvent['type'];
