import type { ChatRequest } from '@rxagent/core';
import { scriptedModel, textTurn, type ScriptedModel } from '@rxagent/testing';
import type { SchedulerLike } from 'rxjs';

/** How many summaries one offline run may ask for. */
const MAX_SUMMARIES = 50;

function promptText(request: ChatRequest): string {
  const first = request.messages[0];
  return first?.role === 'user' && typeof first.content === 'string' ? first.content : '';
}

/** The checkpoint the offline summarizer writes: the goal, and the tool calls it was shown. */
function checkpointOf(prompt: string): string {
  const goal = /<goal>\n([\s\S]*?)\n<\/goal>/.exec(prompt)?.[1] ?? 'Answer the question.';
  const calls = [...prompt.matchAll(/^\[assistant calls (\w+)\]: (.*)$/gm)].map((m) => `${m[1]} ${m[2]}`);
  const previous = /<checkpoint>\n[\s\S]*?## Progress\n([\s\S]*?)\n## /.exec(prompt)?.[1];
  const progress = [...(previous ? [previous] : []), ...calls.map((c) => `- Ran ${c}.`)].join('\n');
  return [
    `## Goal\n${goal}`,
    `## Progress\n${progress || '- Looked around.'}`,
    '## Key decisions\n- Answer from what the tools returned.',
    '## Next steps\n- Read what is still missing, then answer.',
  ].join('\n');
}

/**
 * The offline demo's summary model (for `--context-window` without an API key): a scripted
 * model that writes a checkpoint from the summary prompt (the goal and the tool calls it
 * summarizes), streamed word by word.
 *
 * @example
 * contextEngine({ model: offlineModel(), contextWindow: 8000, summaryModel: offlineSummaryModel() });
 */
export function offlineSummaryModel(
  options: { latency?: number | { firstMs: number; perEventMs: number }; scheduler?: SchedulerLike } = {},
): ScriptedModel {
  return scriptedModel(
    Array.from({ length: MAX_SUMMARIES }, () => (request: ChatRequest) => {
      const text = checkpointOf(promptText(request));
      const words = text.split(/(?<=\s)/);
      return textTurn(text, {
        chunks: words,
        usage: { inputTokens: Math.ceil(promptText(request).length / 4), outputTokens: words.length },
        provider: 'scripted',
        model: 'offline-summary',
      });
    }),
    {
      latency: options.latency ?? { firstMs: 300, perEventMs: 8 },
      scheduler: options.scheduler,
      provider: 'scripted',
      modelId: 'offline-summary',
    },
  );
}
