import { durableTool, type DurableTool } from '@rxagent/durable';
import type { AnyTool, ChatModel, ChatRequest, Message } from '@rxagent/core';
import { Observable } from 'rxjs';
import { noopTool, toolLoopTurn } from './models/tool-loop-model.js';
import { PARALLEL_MODEL, parallelSleepModel, sleepTool } from './durable-parallel.js';

// What the durable benchmark's workers register (in the bench process and in child
// processes alike): the tool-loop model and the no-op tool, by name. A worker serves runs of
// any length because the model reads the length from the run's prompt.

/** Model names: one calls the at-most-once no-op tool, one its idempotent twin. */
export const DURABLE_MODELS = { atMostOnce: 'loop', idempotent: 'loop-idempotent' } as const;

/** Tool names: `noop` is registered plain (at most once: a began marker and its result), its twin idempotent (its result). */
export const DURABLE_TOOLS = { atMostOnce: 'noop', idempotent: 'noop_idempotent' } as const;

/**
 * The prompt of a run of `toolSteps` no-op tool steps, then a final text.
 *
 * @example
 * durablePrompt(20); // "Make 20 tool calls."
 */
export function durablePrompt(toolSteps: number): string {
  return `Make ${toolSteps} tool calls.`;
}

function promptText(message: Message | undefined): string {
  if (message?.role !== 'user') return '';
  if (typeof message.content === 'string') return message.content;
  return message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The tool-loop model (a pure function of the request) with the steps taken from the prompt. */
function promptedLoopModel(toolName: string, onCall: () => void): ChatModel {
  return {
    provider: 'memory',
    modelId: 'tool-loop-model',
    stream: (request: ChatRequest) => {
      onCall();
      return new Observable((subscriber) => {
        const steps = Number(/Make (\d+) tool calls/.exec(promptText(request.messages[0]))?.[1] ?? 0);
        for (const event of toolLoopTurn(request, steps, toolName)) subscriber.next(event);
        subscriber.complete();
      });
    },
  };
}

/** What a benchmark worker registers, and the plain tools the in-memory loop runs with. */
export interface DurableBenchAgent {
  models: Record<string, ChatModel>;
  tools: (AnyTool | DurableTool)[];
  /** The plain tool of each model name, for `runAgent`. */
  plainTools: Record<string, AnyTool>;
}

/**
 * The benchmark's models and tools; `onModelCall` is called when a model call starts (the
 * overhead benchmark times steps by it).
 *
 * @example
 * const worker = await startWorker({ databaseUrl, ...durableBenchAgent() });
 */
export function durableBenchAgent(onModelCall: () => void = () => undefined): DurableBenchAgent {
  const idempotentNoop: AnyTool = { ...noopTool, name: DURABLE_TOOLS.idempotent };
  return {
    models: {
      [DURABLE_MODELS.atMostOnce]: promptedLoopModel(DURABLE_TOOLS.atMostOnce, onModelCall),
      [DURABLE_MODELS.idempotent]: promptedLoopModel(DURABLE_TOOLS.idempotent, onModelCall),
      [PARALLEL_MODEL]: parallelSleepModel(onModelCall),
    },
    tools: [noopTool, durableTool(idempotentNoop, { durability: 'idempotent' }), sleepTool()],
    plainTools: { [DURABLE_MODELS.atMostOnce]: noopTool, [DURABLE_MODELS.idempotent]: idempotentNoop },
  };
}
