import type { AssistantMessage, ChatRequest, Message, RunSnapshot } from '@rxagent/core';
import type { WireEvent } from '@rxagent/core/streams';

/**
 * What the first line of a run log says it is.
 *
 * @example
 * const isRunLog = (header: { format?: unknown }) => header.format === RUN_LOG_FORMAT;
 */
export const RUN_LOG_FORMAT = 'rxagent-run-log';

/**
 * The version of the run-log format `recordRun` writes and `readRunLog` reads.
 *
 * @example
 * if (log.header.version !== RUN_LOG_VERSION) console.warn('written by another @rxagent/replay');
 */
export const RUN_LOG_VERSION = 1;

/**
 * Where a fork came from: the run it was forked from, the point, and the edit it made.
 *
 * @example
 * const lineage: ForkLineage = { runId: 'fork-1', parentRunId: 'run-1', forkedAt: { step: 3, seq: 41 }, edit: 'tool-result' };
 */
export interface ForkLineage {
  readonly runId: string;
  readonly parentRunId: string;
  /** The step whose snapshot the fork continued from, and the parent's last event before it. */
  readonly forkedAt: { readonly step: number; readonly seq: number };
  /** The kind of edit the fork made (`none` for a plain fork). */
  readonly edit: string;
}

/**
 * The first line of a run log.
 *
 * @example
 * const header: RunLogHeader = { format: 'rxagent-run-log', version: 1, runId: 'r1', recorded: 'full' };
 */
export interface RunLogHeader {
  readonly format: typeof RUN_LOG_FORMAT;
  readonly version: number;
  readonly runId: string;
  readonly provider?: string;
  readonly modelId?: string;
  /**
   * `full`: recorded as the run's instrument (events, model requests and responses, a snapshot
   * per turn); `events`: only the events were seen (the run was piped before `recordRun`).
   */
  readonly recorded: 'full' | 'events';
  /** Set when the run is a fork (`forkRun`). */
  readonly lineage?: ForkLineage;
}

/** A list of messages written as a change to the list before it: the first `keep`, then `add`. */
export interface MessagesDelta<M> {
  keep: number;
  add: M[];
}

/** A model request in the log: its transcript as a change to the previous request's. */
export type LoggedRequest = Omit<ChatRequest, 'messages'> & { messages: MessagesDelta<Message> };

/** A snapshot in the log: its transcript and step positions as changes to the previous snapshot's. */
export type LoggedSnapshot = Omit<RunSnapshot, 'messages' | 'stepIndexes'> & {
  messages: MessagesDelta<RunSnapshot['messages'][number]>;
  stepIndexes: MessagesDelta<number>;
};

/**
 * What a model call answered: its final message, or the error it ended with, or `cut` when the
 * run left it before its end.
 *
 * @example
 * const answer: RecordedResponse = { call: 0, message: assistantMessage, events: 12 };
 */
export interface RecordedResponse {
  readonly call: number;
  readonly message?: AssistantMessage;
  readonly error?: {
    name: string;
    message: string;
    retryable?: boolean;
    retryAfterMs?: number;
    status?: number;
  };
  readonly cut?: true;
  /** How many model events the call streamed. */
  readonly events: number;
}

/** One line after the header. @internal */
export type RunLogLine =
  | { kind: 'event'; at: number; event: WireEvent }
  | { kind: 'request'; at: number; call: number; request: LoggedRequest }
  | ({ kind: 'response'; at: number } & RecordedResponse)
  | { kind: 'snapshot'; at: number; afterSeq: number; snapshot: LoggedSnapshot }
  | {
      kind: 'end';
      at: number;
      outcome: 'completed' | 'error' | 'cancelled';
      error?: { name: string; message: string };
    };
