import { Observable, type SchedulerLike } from 'rxjs';
import {
  emptyUsage,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  RateLimitError,
  type AssistantMessage,
  type ChatModel,
  type ModelEvent,
  type ToolCallPart,
} from '@rxagent/core';

/** The failures a scripted turn can end with. */
export type FailKind =
  'rate-limit' | 'rate-limit-retry-after' | 'overloaded' | 'server' | 'network' | 'partial';

/** One scripted model call. */
export type TurnScript =
  | { kind: 'text'; deltas: number }
  | { kind: 'tools'; calls: string[]; text: boolean }
  | { kind: 'fail'; error: FailKind; deltas: number };

/** A model that plays turn scripts in virtual time and counts its open streams. */
export interface FaultModel extends ChatModel {
  /** Streams subscribed and not torn down. */
  readonly live: number;
  readonly calls: number;
  /** True between a failed call and the next call: the loop is in its retry backoff. */
  readonly inBackoff: boolean;
}

function assistant(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']) {
  const usage = { ...emptyUsage(), inputTokens: 3, outputTokens: 2, totalTokens: 5 };
  const message: AssistantMessage = {
    role: 'assistant',
    content,
    stopReason,
    usage,
    provider: 'fault',
    model: 'fault-model',
    timestamp: 0,
  };
  return message;
}

function failure(kind: FailKind, partial: AssistantMessage): unknown {
  switch (kind) {
    case 'rate-limit':
      return new RateLimitError('Too many requests', { provider: 'fault' });
    case 'rate-limit-retry-after':
      return new RateLimitError('Too many requests', { provider: 'fault', retryAfterMs: 7 });
    case 'overloaded':
      return new OverloadedError('Overloaded', { status: 529, provider: 'fault' });
    case 'server':
      return new ProviderError('Internal server error', { status: 500, provider: 'fault' });
    case 'network':
      return new NetworkError('socket hang up', { provider: 'fault' });
    case 'partial':
      return new PartialStreamError('cut', { partial, provider: 'fault' });
  }
}

/**
 * The events of one scripted call and how it ends (`error` undefined: completes).
 *
 * @example
 * const { events } = turnEvents({ kind: 'text', deltas: 3 }, 0);
 */
export function turnEvents(turn: TurnScript, call: number): { events: ModelEvent[]; error?: unknown } {
  if (turn.kind === 'text' || turn.kind === 'fail') {
    const n = Math.max(turn.kind === 'text' ? 1 : 0, turn.deltas);
    const events: ModelEvent[] = [];
    for (let i = 0; i < n; i++) events.push({ type: 'text-delta', index: 0, text: `w${i} ` });
    const message = assistant(
      n > 0 ? [{ type: 'text', text: events.map((e) => (e as { text: string }).text).join('') }] : [],
      'stop',
    );
    if (turn.kind === 'fail') {
      // A cut stream just ends without finish; the others error.
      return turn.error === 'partial' ? { events } : { events, error: failure(turn.error, message) };
    }
    events.push({ type: 'usage', usage: message.usage }, { type: 'finish', reason: 'stop', message });
    return { events };
  }
  const events: ModelEvent[] = [];
  const content: AssistantMessage['content'] = [];
  let index = 0;
  if (turn.text) {
    events.push({ type: 'text-delta', index, text: 'Let me check.' });
    content.push({ type: 'text', text: 'Let me check.' });
    index++;
  }
  turn.calls.forEach((name, k) => {
    const id = `c${call}_${k}`;
    const part: ToolCallPart = { type: 'tool-call', id, name, args: {}, argsText: '{}' };
    events.push(
      { type: 'toolcall-start', index, id, name },
      { type: 'toolcall-delta', index, argsText: '{}' },
      { type: 'toolcall-end', index, call: part },
    );
    content.push(part);
    index++;
  });
  const message = assistant(content, 'tool-calls');
  events.push({ type: 'usage', usage: message.usage }, { type: 'finish', reason: 'tool-calls', message });
  return { events };
}

/**
 * A model that plays `turns` (one per call; past the end, a short final text) with
 * `latencyMs` before each event on `scheduler`, and counts its open streams.
 *
 * @example
 * const model = faultModel([{ kind: 'tools', calls: ['slow'], text: false }, { kind: 'text', deltas: 2 }], scheduler, 5);
 */
export function faultModel(
  turns: readonly TurnScript[],
  scheduler: SchedulerLike,
  latencyMs: number,
): FaultModel {
  let live = 0;
  let calls = 0;
  let inBackoff = false;
  return {
    provider: 'fault',
    modelId: 'fault-model',
    get live() {
      return live;
    },
    get calls() {
      return calls;
    },
    get inBackoff() {
      return inBackoff;
    },
    stream: () =>
      new Observable<ModelEvent>((subscriber) => {
        const call = calls++;
        inBackoff = false;
        live++;
        const { events, error } = turnEvents(turns[call] ?? { kind: 'text', deltas: 1 }, call);
        let i = 0;
        const action = scheduler.schedule(function step(this: { schedule(s?: undefined, d?: number): void }) {
          if (i < events.length) {
            subscriber.next(events[i++] as ModelEvent);
            this.schedule(undefined, latencyMs);
            return;
          }
          if (error !== undefined || turns[call]?.kind === 'fail') inBackoff = true;
          if (error !== undefined) subscriber.error(error);
          else subscriber.complete();
        }, latencyMs);
        return () => {
          live--;
          action.unsubscribe();
        };
      }),
  };
}
