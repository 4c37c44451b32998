import { contentText, type Message, type ToolResultMessage } from '@rxagent/core';
import { CHARS_PER_TOKEN, estimateTokens } from './estimate-tokens.js';

// A result's stub is made once: the same old result is stubbed again on every later call.
const stubs = new WeakMap<ToolResultMessage, ToolResultMessage>();

function stubOf(result: ToolResultMessage): ToolResultMessage {
  let stub = stubs.get(result);
  if (!stub) {
    const length = contentText(result).length;
    stub = {
      ...result,
      content: [
        {
          type: 'text',
          text: `[${result.toolName} ${result.isError ? 'error' : 'result'} of ${length} characters omitted to save context; call the tool again if you need it]`,
        },
      ],
    };
    stubs.set(result, stub);
  }
  return stub;
}

/**
 * The cheap shrink: the bodies of tool results before `keepFrom` replaced by a short stub
 * (the result message stays, so each call keeps its result), and how many were stubbed.
 * Results already small are kept.
 *
 * @example
 * stubToolResults(view, recentStart(view, 20_000, 0)).messages;
 */
export function stubToolResults(
  messages: readonly Message[],
  keepFrom: number,
): { messages: readonly Message[]; stubbed: number } {
  let out: Message[] | undefined;
  let stubbed = 0;
  for (let i = 0; i < keepFrom; i++) {
    const m = messages[i] as Message;
    if (m.role !== 'tool') continue;
    const stub = stubOf(m);
    if (estimateTokens(stub) >= estimateTokens(m)) continue;
    out ??= messages.slice();
    out[i] = stub;
    stubbed++;
  }
  return { messages: out ?? messages, stubbed };
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
