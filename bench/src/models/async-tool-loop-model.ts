import { from } from 'rxjs';
import {
  emptyUsage,
  tool,
  type AssistantMessage,
  type ChatModel,
  type ChatRequest,
  type ModelEvent,
  type Tool,
} from '@rxagent/core';
import { asyncEvents } from './async-array-model.js';
import { noopParameters } from './tool-loop-model.js';

/**
 * The no-op tool of the asynchronous tool loop: an `async` function returning "ok", as user
 * tools are (each call settles on a microtask).
 *
 * @example
 * runAgent({ model: asyncToolLoopModel(10), tools: [asyncNoopTool], prompt: 'go', maxSteps: 11 });
 */
export const asyncNoopTool: Tool<Record<string, never>, string> = tool({
  name: 'noop',
  description: 'Does nothing, asynchronously',
  parameters: noopParameters,
  // The tool stands for any async user tool: the `async` is the point, not an `await`.
  // eslint-disable-next-line @typescript-eslint/require-await
  execute: async () => 'ok',
});

const USAGE = { ...emptyUsage(), inputTokens: 1, outputTokens: 1, totalTokens: 2 };

function message(content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']) {
  const m: AssistantMessage = {
    role: 'assistant',
    content,
    stopReason,
    usage: USAGE,
    provider: 'memory',
    model: 'async-tool-loop-model',
    timestamp: 0,
  };
  return m;
}

/**
 * The events of the answer to a request, as an SDK adapter maps them: while fewer than
 * `toolSteps` steps are in the transcript (prompt + 2 messages a step), one complete call of
 * the no-op tool (`toolcall-start`, `toolcall-end`, `finish`); then a final text
 * (`text-delta`, `finish`). Built per call, as an adapter builds them from the wire.
 *
 * @example
 * asyncToolLoopTurn({ messages: [prompt] }, 3).map((e) => e.type); // ['toolcall-start', 'toolcall-end', 'finish']
 */
export function asyncToolLoopTurn(request: ChatRequest, toolSteps: number): ModelEvent[] {
  const step = (request.messages.length - 1) / 2 + 1;
  if (step > toolSteps) {
    return [
      { type: 'text-delta', index: 0, text: 'done' },
      { type: 'finish', reason: 'stop', message: message([{ type: 'text', text: 'done' }], 'stop') },
    ];
  }
  const id = `call_${step}`;
  const call = { type: 'tool-call' as const, id, name: 'noop', args: {}, argsText: '{}' };
  return [
    { type: 'toolcall-start', index: 0, id, name: 'noop' },
    { type: 'toolcall-end', index: 0, call },
    { type: 'finish', reason: 'tool-calls', message: message([call], 'tool-calls') },
  ];
}

/**
 * A model whose every call streams its answer (see `asyncToolLoopTurn`) from an async
 * generator, `from(asyncEvents(events))`, the way an adapter wraps an SDK's async iterable:
 * `toolSteps` steps of one no-op call, then a final text, so a run makes `toolSteps + 1`
 * model calls. A step's few events arrive as from one socket read (the generator gives the
 * event loop a turn every `ASYNC_YIELD_EVERY` events), each on a microtask of its own.
 *
 * @example
 * await lastValueFrom(runAgent({ model: asyncToolLoopModel(100), tools: [asyncNoopTool], prompt: 'go', maxSteps: 101 }));
 */
export function asyncToolLoopModel(toolSteps: number): ChatModel {
  return {
    provider: 'memory',
    modelId: 'async-tool-loop-model',
    stream: (request) => from(asyncEvents(asyncToolLoopTurn(request, toolSteps))),
  };
}
