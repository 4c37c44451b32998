import { contentText, type Message, type ToolResultMessage } from '@rxagent/core';
import { CHARS_PER_TOKEN, estimateTokens } from './estimate-tokens.js';

/**
 * The cheap shrink of one old tool result: the same message with its body replaced by a
 * one-line stub (the result message stays, so its call keeps its result). The engine's
 * ledger makes it once per result and keeps it only when it is smaller.
 *
 * @example
 * toolResultStub(result).content; // [{ type: 'text', text: '[read result of 5120 characters omitted …]' }]
 */
export function toolResultStub(result: ToolResultMessage): ToolResultMessage {
  const length = contentText(result).length;
  return {
    ...result,
    content: [
      {
        type: 'text',
        text: `[${result.toolName} ${result.isError ? 'error' : 'result'} of ${length} characters omitted to save context; call the tool again if you need it]`,
      },
    ],
  };
}

/**
 * The last resort when even the recent part does not fit: every tool result over
 * `maxTokensEach` is cut to its start, with a note saying so.
 *
 * @example
 * clipToolResults(view, 1_000).messages;
 */
export function clipToolResults(
  messages: readonly Message[],
  maxTokensEach: number,
): { messages: readonly Message[]; clipped: number } {
  let out: Message[] | undefined;
  let clipped = 0;
  const maxChars = maxTokensEach * CHARS_PER_TOKEN;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'tool' || estimateTokens(m) <= maxTokensEach) continue;
    const text = contentText(m);
    out ??= messages.slice();
    out[i] = {
      ...m,
      content: [
        {
          type: 'text',
          text: `${text.slice(0, maxChars)}\n[… ${text.length - maxChars} more characters cut to fit the context window]`,
        },
      ],
    };
    clipped++;
  }
  return { messages: out ?? messages, clipped };
}
