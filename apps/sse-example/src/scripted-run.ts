import { runAgent, tool, type AgentEvent } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { Observable } from 'rxjs';
import { z } from 'zod';

const lookUp = tool({
  name: 'look_up',
  description: 'Looks a word up in the glossary',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a value over time`,
});

/**
 * A run with a scripted model (no API key needed): a tool call, then a streamed answer, with
 * `latencyMs` between model events. Swap in `openaiChatModel(...)` for a real one.
 *
 * @example
 * const hubs = new RunHubs((prompt) => scriptedRun(prompt));
 */
export function scriptedRun(prompt: string, latencyMs = 20): Observable<AgentEvent> {
  const model = scriptedModel(
    [
      toolCallTurn({ name: 'look_up', args: { word: 'observable' } }),
      textTurn(`You asked: "${prompt}". An observable is a value over time, streamed to you live.`, {
        chunks: 12,
      }),
    ],
    { latency: latencyMs },
  );
  return runAgent({ model, tools: [lookUp], prompt });
}
