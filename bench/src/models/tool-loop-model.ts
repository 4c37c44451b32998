import { Observable } from 'rxjs';
import { z } from 'zod';
import {
  emptyUsage,
  tool,
  type AssistantMessage,
  type ChatModel,
  type ChatRequest,
  type ModelEvent,
  type Tool,
} from '@rxagent/core';

/**
 * The arguments schema of `noopTool` (an empty object).
 *
 * @example
 * noopParameters.parse({}); // {}
 */
export const noopParameters = z.object({});

/**
 * The no-op tool the tool-loop model calls: synchronous, returns "ok".
 *
 * @example
 * runAgent({ model: toolLoopModel(10), tools: [noopTool], prompt: 'go', maxSteps: 11 });
 */
export const noopTool: Tool<Record<string, never>, string> = tool({
  name: 'noop',
  description: 'Does nothing',
  parameters: noopParameters,
  execute: () => 'ok',
});

function message(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']) {
  const usage = { ...emptyUsage(), inputTokens: 1, outputTokens: 1, totalTokens: 2 };
  const m: AssistantMessage = {
    role: 'assistant',
    content,
    stopReason,
    usage,
    provider: 'memory',
    model: 'tool-loop-model',
    timestamp: 0,
  };
  return m;
}

/**
 * The answer to a request, as a pure function of it: while fewer than `toolSteps` steps are
 * in the transcript (prompt + 2 messages a step), one call of `toolName` (no arguments); then
 * a final text.
 *
 * @example
 * toolLoopTurn({ messages: [prompt] }, 3); // a noop call (step 1 of 3)
 */
export function toolLoopTurn(request: ChatRequest, toolSteps: number, toolName = 'noop'): ModelEvent[] {
  const step = (request.messages.length - 1) / 2 + 1;
  if (step > toolSteps) {
    const final = message([{ type: 'text', text: 'done' }], 'stop');
    return [
      { type: 'text-delta', index: 0, text: 'done' },
      { type: 'usage', usage: final.usage },
      { type: 'finish', reason: 'stop', message: final },
    ];
  }
  const id = `call_${step}`;
  const call = { type: 'tool-call' as const, id, name: toolName, args: {}, argsText: '{}' };
  const m = message([call], 'tool-calls');
  return [
    { type: 'toolcall-start', index: 0, id, name: toolName },
    { type: 'toolcall-delta', index: 0, argsText: '{}' },
    { type: 'toolcall-end', index: 0, call },
    { type: 'usage', usage: m.usage },
    { type: 'finish', reason: 'tool-calls', message: m },
  ];
}

/**
 * A model that answers synchronously (see `toolLoopTurn`): `toolSteps` steps of one no-op
 * call (of the tool named `toolName`), then a final text, so a run makes `toolSteps + 1`
 * model calls.
 *
 * @example
 * runAgent({ model: toolLoopModel(100), tools: [noopTool], prompt: 'go', maxSteps: 101 }).subscribe();
 */
export function toolLoopModel(toolSteps: number, toolName = 'noop'): ChatModel {
  return {
    provider: 'memory',
    modelId: 'tool-loop-model',
    stream: (request) =>
      new Observable<ModelEvent>((subscriber) => {
        const events = toolLoopTurn(request, toolSteps, toolName);
        for (const event of events) subscriber.next(event);
        subscriber.complete();
      }),
  };
}
