import { Observable } from 'rxjs';
import {
  emptyUsage,
  runAgent,
  type AgentEvent,
  type AssistantMessage,
  type ChatModel,
  type ModelEvent,
  type RunAgentConfig,
  type ToolCallPart,
  type ToolResultMessage,
} from '@rxagent/core';
import { settle } from './virtual-time.js';

/**
 * A final answer: one text delta, then finish.
 *
 * @example
 * syncModel([{ events: finalTextEvents('All done.') }]);
 */
export function finalTextEvents(text = 'done'): ModelEvent[] {
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'text', text }],
    stopReason: 'stop',
    usage: emptyUsage(),
    provider: 'sync',
    model: 'sync-model',
    timestamp: 0,
  };
  return [
    { type: 'text-delta', index: 0, text },
    { type: 'finish', reason: 'stop', message },
  ];
}

/** A call to script: `malformed` makes it a call whose JSON arguments did not parse. */
export interface CallSpec {
  name: string;
  args?: unknown;
  malformed?: string;
}

/**
 * The events of a model call asking for tools (ids `call_0`, `call_1`…): `toolcall-end` per
 * call, then finish.
 *
 * @example
 * syncModel([{ events: toolCallEvents([{ name: 'weather', args: { city: 'Paris' } }]) }]);
 */
export function toolCallEvents(calls: readonly CallSpec[]): ModelEvent[] {
  const parts: ToolCallPart[] = calls.map((c, i) => {
    const part: ToolCallPart = { type: 'tool-call', id: `call_${i}`, name: c.name, args: c.args ?? {} };
    if (c.malformed !== undefined) {
      part.args = {};
      part.argsText = c.malformed;
      part.argsError = 'Unexpected end of JSON input';
    }
    return part;
  });
  const message: AssistantMessage = {
    role: 'assistant',
    content: parts,
    stopReason: 'tool-calls',
    usage: emptyUsage(),
    provider: 'sync',
    model: 'sync-model',
    timestamp: 0,
  };
  return [
    ...parts.map((call, index): ModelEvent => ({ type: 'toolcall-end', index, call })),
    { type: 'finish', reason: 'tool-calls', message },
  ];
}

/**
 * The tool results among a run's events, in order.
 *
 * @example
 * const [first] = toolResults(events);
 */
export function toolResults(events: readonly AgentEvent[]): ToolResultMessage[] {
  return events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'tool' ? [e.message] : []));
}

/**
 * A model that answers synchronously: call N emits `calls[N]` (or a final text past the
 * end), then completes — or errors with `error` when the entry has one.
 *
 * @example
 * const model = syncModel([{ events: toolCallEvents }, { events: finalTextEvents() }]);
 */
export function syncModel(calls: readonly { events: readonly unknown[]; error?: unknown }[]): ChatModel {
  let call = 0;
  return {
    provider: 'sync',
    modelId: 'sync-model',
    stream: () =>
      new Observable<ModelEvent>((subscriber) => {
        const script = calls[call++] ?? { events: finalTextEvents() };
        for (const event of script.events) subscriber.next(event as ModelEvent);
        if (script.error !== undefined) subscriber.error(script.error);
        else subscriber.complete();
      }),
  };
}

/** How a run ended. */
export interface RunEnd {
  events: AgentEvent[];
  /** `complete`, `error`, or `pending` when it had not ended after the given time. */
  outcome: 'complete' | 'error' | 'pending';
  error?: unknown;
  /** True when it ended before `subscribe` returned. */
  synchronous: boolean;
}

/**
 * Subscribes to a run and waits for it to end, at most `timeoutMs` of real time (tools may do
 * real I/O); a run still going then is reported as `pending`.
 *
 * @example
 * const end = await runToEnd({ model, tools, prompt: 'go' });
 * expect(end.outcome).toBe('complete');
 */
export async function runToEnd(config: RunAgentConfig, timeoutMs = 5_000): Promise<RunEnd> {
  const events: AgentEvent[] = [];
  let outcome: RunEnd['outcome'] = 'pending';
  let error: unknown;
  const sub = runAgent(config).subscribe({
    next: (event) => events.push(event),
    error: (e: unknown) => {
      outcome = 'error';
      error = e;
    },
    complete: () => (outcome = 'complete'),
  });
  const synchronous = outcome !== 'pending';
  const deadline = Date.now() + timeoutMs;
  while (outcome === 'pending' && Date.now() < deadline) {
    await settle();
    if (outcome === 'pending') await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
  sub.unsubscribe();
  return { events, outcome, error, synchronous };
}
