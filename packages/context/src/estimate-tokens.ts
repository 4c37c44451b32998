import type { Message } from '@rxagent/core';
import type { SystemBlock, ToolSpec } from '@rxagent/core/provider';

/**
 * Characters per token of the estimate: OpenAI's rule of thumb for English and code (≈4),
 * which Anthropic's tokenizer matches within ~15 % on the same text. Reported usage corrects
 * it wherever the provider gave one (the engine calibrates on the last reported usage).
 *
 * @example
 * const tokens = Math.ceil(text.length / CHARS_PER_TOKEN);
 */
export const CHARS_PER_TOKEN = 4;
/** Role markers and separators a provider adds per message. */
const MESSAGE_OVERHEAD = 4;
/** An image, whatever its size (the providers charge ~85–1,600 tokens). */
const IMAGE_TOKENS = 1_000;

// Messages are immutable snapshots (the loop never changes one), so an estimate is made once.
const cache = new WeakMap<Message, number>();

function textTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function partsTokens(parts: readonly { type: string; text?: string }[]): number {
  let n = 0;
  for (const part of parts) n += part.type === 'image' ? IMAGE_TOKENS : textTokens(part.text ?? '');
  return n;
}

/**
 * A message's size in tokens, computed every time (no memo: the engine's ledger keeps what it
 * measured, by position in the transcript).
 *
 * @example
 * measureTokens(userMessage('List the files in src')); // 10
 */
export function measureTokens(message: Message): number {
  switch (message.role) {
    case 'system':
      return MESSAGE_OVERHEAD + textTokens(message.content);
    case 'user':
      return (
        MESSAGE_OVERHEAD +
        (typeof message.content === 'string' ? textTokens(message.content) : partsTokens(message.content))
      );
    case 'tool':
      return MESSAGE_OVERHEAD + textTokens(message.toolName) + partsTokens(message.content);
    case 'assistant': {
      let n = MESSAGE_OVERHEAD;
      for (const part of message.content) {
        if (part.type === 'tool-call')
          n += textTokens(part.name) + textTokens(part.argsText ?? JSON.stringify(part.args ?? {}));
        else if (part.type === 'image') n += IMAGE_TOKENS;
        else if (part.type === 'provider') n += textTokens(part.text ?? JSON.stringify(part.data ?? null));
        else n += textTokens(part.text);
      }
      return n;
    }
  }
}

/**
 * A message's size in tokens, estimated from its characters (`CHARS_PER_TOKEN`), memoised per
 * message object.
 *
 * @example
 * estimateTokens(userMessage('List the files in src')); // 10
 */
export function estimateTokens(message: Message): number {
  let n = cache.get(message);
  if (n === undefined) {
    n = measureTokens(message);
    cache.set(message, n);
  }
  return n;
}

/**
 * The estimated size of `messages[from..to)`.
 *
 * @example
 * estimateAll(transcript); // ≈ characters / 4
 */
export function estimateAll(messages: readonly Message[], from = 0, to = messages.length): number {
  let n = 0;
  for (let i = from; i < to; i++) n += estimateTokens(messages[i] as Message);
  return n;
}

/**
 * The estimated size of a system prompt.
 *
 * @example
 * systemTokens('Be brief.'); // 3
 */
export function systemTokens(system: string | readonly SystemBlock[] | undefined): number {
  if (typeof system === 'string') return textTokens(system);
  let n = 0;
  if (system) for (const block of system) n += textTokens(block.text);
  return n;
}

/**
 * The estimated size of the tool definitions sent with a call (their JSON).
 *
 * @example
 * toolTokens(run.toolSpecs); // ≈ the schemas' characters / 4
 */
export function toolTokens(tools: readonly ToolSpec[] | undefined): number {
  return tools && tools.length > 0 ? textTokens(JSON.stringify(tools)) : 0;
}
