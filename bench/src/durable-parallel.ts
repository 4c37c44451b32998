import { durableTool, type DurableRuns, type DurableTool } from '@rxagent/durable';
import { jsonSchema, tool, type ChatModel, type ChatRequest } from '@rxagent/core';
import { Observable } from 'rxjs';
import { median } from './measure.js';

// The durable benchmark's parallel-tools step: a model asking for sleeps at once, the sleep tool.

/** The model that asks for parallel sleeps, and the sleeping tool (idempotent). */
export const PARALLEL_MODEL = 'parallel-sleep';
export const SLEEP_TOOL = 'sleep_100';
const SLEEP_MS = 100;

/**
 * A model that asks, in its first step, for as many `sleep_100` calls at once as the prompt
 * says ("Sleep 4 times."), then answers.
 *
 * @example
 * startWorker({ databaseUrl, models: { [PARALLEL_MODEL]: parallelSleepModel(onCall) }, tools: [sleepTool()] });
 */
export function parallelSleepModel(onCall: () => void): ChatModel {
  return {
    provider: 'memory',
    modelId: PARALLEL_MODEL,
    stream: (request: ChatRequest) => {
      onCall();
      return new Observable((subscriber) => {
        const first = request.messages[0];
        const text = first?.role === 'user' && typeof first.content === 'string' ? first.content : '';
        const calls = request.messages.some((m) => m.role === 'tool')
          ? 0
          : Number(/Sleep (\d+)/.exec(text)?.[1] ?? 0);
        const content = Array.from({ length: calls }, (_, i) => ({
          type: 'tool-call' as const,
          id: `sleep_${i}`,
          name: SLEEP_TOOL,
          args: {},
          argsText: '{}',
        }));
        const message = {
          role: 'assistant' as const,
          content: calls > 0 ? content : [{ type: 'text' as const, text: 'Slept.' }],
          stopReason: calls > 0 ? ('tool-calls' as const) : ('stop' as const),
          usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 2 },
          provider: 'memory',
          model: PARALLEL_MODEL,
          timestamp: 0,
        };
        subscriber.next({ type: 'finish', reason: message.stopReason, message });
        subscriber.complete();
      });
    },
  };
}

/** A tool that waits 100 ms (idempotent). */
export function sleepTool(): DurableTool {
  return durableTool(
    tool({
      name: SLEEP_TOOL,
      description: 'Waits 100 ms',
      parameters: jsonSchema<Record<string, never>>({ type: 'object', properties: {} }),
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('slept'), SLEEP_MS)),
    }),
    { durability: 'idempotent' },
  );
}

/**
 * ms of the step that runs `calls` sleeps at once in a durable run (from its model call to the
 * next one: the tools and every checkpoint of the step), median of `rounds`.
 */
export async function parallelStepMs(
  client: DurableRuns,
  starts: () => number[],
  reset: () => void,
  calls: number,
  rounds: number,
): Promise<number> {
  const figures: number[] = [];
  for (let i = 0; i < rounds + 1; i++) {
    reset();
    const id = await client.startRun({
      model: PARALLEL_MODEL,
      tools: [SLEEP_TOOL],
      prompt: `Sleep ${calls} times.`,
      toolConcurrency: 4,
    });
    const result = await client.runResult(id);
    const [first, second] = starts();
    if (result.reason !== 'completed' || first === undefined || second === undefined) {
      throw new Error(
        `The parallel-sleep run ended with ${result.reason} after ${starts().length} model calls.`,
      );
    }
    if (i > 0) figures.push(second - first); // the first round warms up
  }
  return median(figures);
}
