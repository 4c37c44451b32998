import { catchError, map, throwError, type Observable } from 'rxjs';
import { assistantMessage, finishEvent, textDelta } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { assistantText } from '../messages/message-helpers.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';

// Shared by the guardrail specs: a model answering "Hello" in marbles, and summaries of the
// pipeline's items (turns hold functions, so they are compared as summaries).

export const hello = assistantMessage([{ type: 'text', text: 'Hello' }], 'stop');
export const helloValues: Record<string, ModelEvent> = {
  a: textDelta('Hel'),
  b: textDelta('lo'),
  f: finishEvent(hello),
};

/** A model whose every call plays `stream$` (a cold marble: its subscriptions show the cut). */
export function streamModel(stream$: Observable<ModelEvent>): ChatModel & { calls: number } {
  const model = {
    provider: 'marble',
    modelId: 'marble-model',
    calls: 0,
    stream: () => {
      model.calls++;
      return stream$;
    },
  };
  return model;
}

export function eventSummary(event: AgentEvent): string {
  switch (event.type) {
    case 'message-start':
      return `start:${event.message.role}`;
    case 'message-update':
      return `update:${event.delta.text}`;
    case 'message-end':
      return `end:${event.message.role}:${event.message.role === 'assistant' ? assistantText(event.message) : ''}`;
    case 'guardrail-start':
      return `guard:${event.guardrail}`;
    case 'guardrail-end':
      return `verdict:${event.guardrail}:${event.outcome}${event.reason ? `:${event.reason}` : ''}`;
    default:
      return event.type;
  }
}

export function turnSummary(turn: Turn) {
  return {
    assistant: turn.assistant ? assistantText(turn.assistant) : undefined,
    roles: turn.messages.map((m) => m.role),
    stop: turn.stop ? `${turn.stop.reason}:${turn.stop.source}` : undefined,
    next: turn.next.map((m) => m.content),
  };
}

export const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : eventSummary(item))),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );
