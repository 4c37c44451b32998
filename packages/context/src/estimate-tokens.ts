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

function compute(message: Message): number {
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
    n = compute(message);
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

const toolsCache = new WeakMap<readonly ToolSpec[], number>();

/**
 * The estimated size of what every call sends besides the messages: the system prompt and
 * the tool definitions (memoised per tool list).
 *
 * @example
 * fixedTokens({ system: 'Be brief.', tools: run.toolSpecs }); // ≈ 3 + the schemas' characters / 4
 */
export function fixedTokens(context: {
  system?: string | SystemBlock[];
  tools?: readonly ToolSpec[];
}): number {
  const { system, tools } = context;
  let n = 0;
  if (typeof system === 'string') n += textTokens(system);
  else if (system) for (const block of system) n += textTokens(block.text);
  if (tools && tools.length > 0) {
    let t = toolsCache.get(tools);
    if (t === undefined) {
      t = textTokens(JSON.stringify(tools));
      toolsCache.set(tools, t);
    }
    n += t;
  }
  return n;
}

/**
 * Estimated sizes of whole message lists, remembered: a list seen before costs a lookup, and
 * a list that extends the last one seen (the transcript of the next turn) costs only its new
 * messages. So the projection before each call is O(messages appended), not O(transcript).
 *
 * @example
 * const tally = new TokenTally();
 * tally.total(turn1Messages, true); tally.total(turn2Messages, true); // the second only estimates what turn 2 added
 */
export class TokenTally {
  private readonly totals = new WeakMap<readonly Message[], number>();
  /** The transcripts seen last, newest first. */
  private recent: { length: number; tail: Message; total: number }[] = [];

  /**
   * The estimated size of `messages`. `appendOnly`: the list is a transcript that only grows
   * (a later one keeps every earlier message), so it may extend an earlier list; a projected
   * view (stubs in place of results) may not.
   */
  total(messages: readonly Message[], appendOnly = false): number {
    const known = this.totals.get(messages);
    if (known !== undefined) return known;
    const base = appendOnly
      ? this.recent.find((r) => messages.length >= r.length && messages[r.length - 1] === r.tail)
      : undefined;
    const total = base ? base.total + estimateAll(messages, base.length) : estimateAll(messages);
    this.totals.set(messages, total);
    if (appendOnly && messages.length > 0) {
      this.recent = [
        { length: messages.length, tail: messages[messages.length - 1] as Message, total },
        ...this.recent.slice(0, 3),
      ];
    }
    return total;
  }
}
