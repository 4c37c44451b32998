import type { ChatRequest } from '@rxagent/core';
import { scriptedModel, toolCallTurn, type ScriptedModel, type ScriptedTurnInput } from '@rxagent/testing';
import { listEntries, toolOutputs } from './folder-facts.js';
import { checkpointText, compactedAnswer } from './offline-compacted-answer.js';
import {
  OFFLINE_LATENCY,
  offlinePlan,
  questionOf,
  spokenTurn,
  type OfflineModelOptions,
} from './offline-plan.js';

/** The README of every subfolder the plan listed (`packages/core/README.md`, …). */
function subfolderReadmes(request: ChatRequest): string[] {
  return toolOutputs(request.messages)
    .filter((o) => o.name === 'list' && !o.isError && typeof o.args.path === 'string' && o.args.path !== '.')
    .flatMap((o) =>
      listEntries(o.text)
        .filter((entry) => entry.endsWith('/'))
        // Entries are relative to the root folder already (`packages/core/`).
        .map((entry) => `${entry}README.md`),
    );
}

/**
 * The offline plan with one more turn before the answer: it reads the README of every
 * subfolder it listed. A longer run, for `--context-window` (the context grows past a small
 * window, so the engine compacts it); when it was compacted, the answer is made of what the
 * context still holds (the READMEs read since, what the checkpoint says was done).
 *
 * @example
 * runAgent({ model: deepOfflineModel({ latency: 0 }), tools, prompt, contextManager: contextEngine({ model, contextWindow: 8000 }) });
 */
export function deepOfflineModel(options: OfflineModelOptions = {}): ScriptedModel {
  const [look, dig, answer] = offlinePlan() as [ScriptedTurnInput, ScriptedTurnInput, ScriptedTurnInput];
  const play = (turn: ScriptedTurnInput, request: ChatRequest, call: number) =>
    typeof turn === 'function' ? turn(request, call) : turn;
  const readAll = (request: ChatRequest, call: number) => {
    const paths = subfolderReadmes(request);
    if (paths.length === 0) return play(answer, request, call);
    const inputTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
    return toolCallTurn(
      paths.map((path) => ({ name: 'read', args: { path } })),
      {
        text: 'Let me read the README of each of them too.',
        provider: 'scripted',
        model: 'offline-demo',
        usage: { inputTokens, outputTokens: 20 * paths.length },
      },
    );
  };
  // Once compacted, the early results are in the checkpoint only: answer from what is left.
  const finalAnswer = (request: ChatRequest, call: number) =>
    checkpointText(request.messages) === undefined
      ? play(answer, request, call)
      : spokenTurn(request, compactedAnswer(request.messages, questionOf(request.messages)));
  return scriptedModel([look, dig, readAll, finalAnswer], {
    latency: options.latency ?? OFFLINE_LATENCY,
    scheduler: options.scheduler,
    provider: 'scripted',
    modelId: 'offline-demo',
  });
}
