import type { AgentEventType } from '../../events/agent-event.js';

/**
 * One event on a wire (SSE, `--json` lines, a durable event log, the proxy's run stream): the
 * event's JSON with its per-run sequence number `seq`, and what the reader already has left
 * out. A `message-update` carries its `delta` (plus, when the delta alone does not say it, the
 * changed parts by position, `at`, or the new `usage`; the first of a message, the message as it
 * started, `base`) instead of the partial message; a
 * message the reader already received is a reference `{ "$m": seq }`; a part of the streamed
 * message is `null` in its `message-end`. `decodeEvents` / `createWireDecoder` fold them back
 * into the very events of the run. Read it as JSON; build it only with the encoder.
 *
 * @example
 * const wire: WireEvent = { seq: 7, type: 'message-update', delta: { kind: 'text', text: 'Hel', index: 0 } };
 */
export interface WireEvent {
  /** Position in the run's stream, from 1 (a sub-run's events share their parent's). */
  seq: number;
  type: string;
  [field: string]: unknown;
}

/** A reference to a message the reader received before: the ref id (seq, or a log key) of the event that carried it. */
export interface MessageRef {
  $m: number | string;
}

/** A reference to a content part of the step's message, by position. */
export interface PartRef {
  $p: number;
}

/** Every event type this codec knows (others, from a newer writer, are skipped by readers). */
export const KNOWN_EVENT_TYPES: ReadonlySet<string> = new Set<string>(
  Object.keys({
    'agent-start': 1,
    'turn-start': 1,
    'message-start': 1,
    'message-update': 1,
    'message-end': 1,
    'tool-start': 1,
    'tool-update': 1,
    'tool-end': 1,
    'approval-request': 1,
    'approval-end': 1,
    'turn-end': 1,
    retry: 1,
    compaction: 1,
    'context-usage': 1,
    'summary-start': 1,
    'summary-update': 1,
    warning: 1,
    'output-update': 1,
    'guardrail-start': 1,
    'guardrail-end': 1,
    subrun: 1,
    'elicitation-request': 1,
    'elicitation-end': 1,
    'agent-end': 1,
  } satisfies Record<AgentEventType, 1>),
);

export function isMessageRef(value: unknown): value is MessageRef {
  return typeof value === 'object' && value !== null && '$m' in value && !('role' in value);
}

export function isPartRef(value: unknown): value is PartRef {
  return typeof value === 'object' && value !== null && '$p' in value && !('type' in value);
}
