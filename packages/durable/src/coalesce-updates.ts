import type { AgentEvent } from '@rxagent/core';
import type { MessageUpdateEvent } from '@rxagent/core/events';

/** The `message-update` in an event (a sub-run's too) and the stream it belongs to. */
function updateOf(event: AgentEvent): { stream: string; update: MessageUpdateEvent } | undefined {
  if (event.type === 'message-update') return { stream: '', update: event };
  if (event.type === 'subrun' && event.event.type === 'message-update') {
    return { stream: event.path[event.path.length - 1]?.runId ?? '?', update: event.event };
  }
  return undefined;
}

/**
 * Two streamed deltas in a row, of the same part of the same message, as one: the later partial
 * message and the two texts joined (`undefined` when they cannot merge). The log stores a batch
 * of deltas as one row: a watcher gets the same text in fewer, larger deltas.
 *
 * @example
 * coalesceUpdates(a, b) ?? [a, b];
 */
export function coalesceUpdates(a: AgentEvent, b: AgentEvent): AgentEvent | undefined {
  const first = updateOf(a);
  const second = updateOf(b);
  if (!first || !second || first.stream !== second.stream) return undefined;
  const x = first.update.delta;
  const y = second.update.delta;
  if (x.kind === 'part' || x.kind !== y.kind || x.index !== y.index) return undefined;
  const merged: MessageUpdateEvent = {
    type: 'message-update',
    message: second.update.message,
    delta: { kind: x.kind, text: x.text + y.text, index: x.index },
  };
  return b.type === 'subrun' ? { ...b, event: merged } : merged;
}
