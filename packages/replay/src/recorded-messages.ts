import type { AgentMessage, UserMessage } from '@rxagent/core';
import { CANCELLED_FOR_STEERING_TEXT, SKIPPED_FOR_STEERING_TEXT } from '@rxagent/core/provider';
import type { RunLog } from './run-log.js';

/**
 * Where in its step a message reached the run, as the recording shows it: after the step's model
 * message (every call of the step was skipped for it), as a call started (that call was
 * cancelled for it), after a call ended (the next call was skipped for it), or at the step's end
 * (it changed nothing in the step).
 *
 * @example
 * const point: ArrivalPoint = { kind: 'tool-end', toolCallId: 'call_2' };
 */
export type ArrivalPoint =
  | { readonly kind: 'model-end' }
  | { readonly kind: 'tool-start'; readonly toolCallId: string }
  | { readonly kind: 'tool-end'; readonly toolCallId: string }
  | { readonly kind: 'step-end' };

/**
 * A message a recorded run received through `steering$` or `followUp$`: the step in which it
 * arrived, the point in that step, and the message.
 *
 * @example
 * for (const a of recordedArrivals(log)) console.log(a.step, a.queue, a.point.kind);
 */
export interface RecordedArrival {
  readonly step: number;
  readonly queue: 'steering' | 'followUp';
  readonly point: ArrivalPoint;
  readonly message: UserMessage;
}

function textOf(message: AgentMessage | undefined): string | undefined {
  if (message?.role !== 'tool') return undefined;
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

/** The point of a step's steering messages, from what they did to the step's calls. */
function pointOf(
  messages: readonly AgentMessage[],
  assistantIndex: number | undefined,
  results: number,
): ArrivalPoint {
  const assistant = assistantIndex === undefined ? undefined : messages[assistantIndex];
  if (assistant?.role !== 'assistant') return { kind: 'step-end' };
  const texts = new Map<string, string | undefined>();
  for (const m of messages.slice((assistantIndex as number) + 1, (assistantIndex as number) + 1 + results))
    if (m.role === 'tool') texts.set(m.toolCallId, textOf(m));
  const calls = assistant.content.flatMap((p) => (p.type === 'tool-call' ? [p.id] : []));
  for (let i = 0; i < calls.length; i++) {
    const id = calls[i] as string;
    const text = texts.get(id);
    if (text === CANCELLED_FOR_STEERING_TEXT) return { kind: 'tool-start', toolCallId: id };
    if (text === SKIPPED_FOR_STEERING_TEXT) {
      return i === 0 ? { kind: 'model-end' } : { kind: 'tool-end', toolCallId: calls[i - 1] as string };
    }
  }
  return { kind: 'step-end' };
}

/** The same message by role and content (the time a queue stamps it with aside). */
function sameContent(a: UserMessage | undefined, b: UserMessage | undefined): boolean {
  return a !== undefined && b !== undefined && JSON.stringify(a.content) === JSON.stringify(b.content);
}

/**
 * The messages a recorded run received through `steering$` / `followUp$` after snapshot `after`
 * (−1: all), in order, each with the step it arrived in and where (see `ArrivalPoint`). Read
 * from the snapshots: each holds the messages queued and not yet delivered when its turn ended;
 * a follow-up still waiting from the turn before is not a new one. One pass over the log.
 *
 * @param log The recorded run (with snapshots: recorded straight from `runAgent`).
 * @param after The snapshot index after which arrivals count (a fork's point).
 * @return The arrivals, in step order.
 *
 * @example
 * const arrivals = recordedArrivals(log, point.index);
 */
export function recordedArrivals(log: RunLog, after = -1): RecordedArrival[] {
  const arrivals: RecordedArrival[] = [];
  const messages: AgentMessage[] = [];
  let waiting: readonly UserMessage[] = [];
  for (let i = 0; i < log.snapshots.length; i++) {
    const logged = log.loggedSnapshot(i);
    if (!logged) break;
    messages.length = Math.min(messages.length, logged.messages.keep);
    for (const m of logged.messages.add) messages.push(m);
    const { steering, followUps } = logged.pending;
    // Follow-ups are delivered all at once: either those of the turn before are still waiting
    // (the same ones first), or they were delivered and these are new.
    const carried =
      waiting.length > 0 && waiting.every((m, j) => sameContent(m, followUps[j])) ? waiting.length : 0;
    waiting = followUps;
    if (i <= after) continue;
    const step = logged.step;
    if (steering.length > 0) {
      const point = pointOf(messages, logged.assistantIndex, logged.toolResultCount ?? 0);
      for (const message of steering) arrivals.push({ step, queue: 'steering', point, message });
    }
    for (const message of followUps.slice(carried))
      arrivals.push({ step, queue: 'followUp', point: { kind: 'step-end' }, message });
  }
  return arrivals;
}
