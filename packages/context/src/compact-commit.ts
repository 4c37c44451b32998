import type { AgentMessage, Message } from '@rxagent/core';
import type { ContextCommit, ContextUsage } from '@rxagent/core/context';
import type { ContextOutcome } from './context-plan.js';
import { headLength } from './transcript-parts.js';

/**
 * A committed compaction: the transcript rewritten as its head, the new checkpoint and the
 * recent part verbatim. `model` is the model-visible part of `messages` the outcome was
 * computed on; custom messages in the summarized part are dropped, those in the head and the
 * recent part stay. Without a new checkpoint, the transcript is unchanged.
 *
 * @example
 * const commit = compactCommit(agent.messages, agent.messages.filter(isModelVisible), outcome, usage);
 */
export function compactCommit(
  messages: readonly AgentMessage[],
  model: readonly Message[],
  outcome: ContextOutcome,
  usage: ContextUsage | undefined,
): ContextCommit {
  if (!outcome.compaction || outcome.cut === undefined || !outcome.checkpoint) return { messages, usage };
  const head = headLength(model);
  const headEnd = head > 0 ? messages.indexOf(model[head - 1] as Message) + 1 : 0;
  const cutAt =
    outcome.cut < model.length ? messages.indexOf(model[outcome.cut] as Message) : messages.length;
  return {
    messages: [...messages.slice(0, headEnd), outcome.checkpoint, ...messages.slice(cutAt)],
    compaction: outcome.compaction,
    usage,
  };
}
