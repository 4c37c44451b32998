import type { ChatRequest } from '../model/chat-model.js';
import type { Message } from '../messages/types.js';

/** Characters per token: OpenAI's rule of thumb for English and code (the context engine's too). */
const CHARS_PER_TOKEN = 4;
/** Role markers and separators a provider adds per message, in characters. */
const MESSAGE_OVERHEAD_CHARS = 16;
/** An image, whatever its size (the providers charge ~85–1,600 tokens), in characters. */
const IMAGE_CHARS = 4_000;

function partChars(part: { type: string; text?: string }): number {
  return part.type === 'image' ? IMAGE_CHARS : (part.text?.length ?? 0);
}

function messageChars(message: Message): number {
  let n = MESSAGE_OVERHEAD_CHARS;
  if (message.role === 'tool') n += message.toolName.length;
  const content = message.content;
  if (typeof content === 'string') return n + content.length;
  for (const part of content) {
    if (part.type === 'tool-call') {
      n += part.name.length + (part.argsText ?? JSON.stringify(part.args ?? {})).length;
    } else if (part.type === 'provider') {
      n += part.text?.length ?? JSON.stringify(part.data ?? null).length;
    } else {
      n += partChars(part);
    }
  }
  return n;
}

/**
 * The input tokens of a model call, estimated from its characters (4 per token): the system
 * prompt, every message (images count 1,000 tokens) and the tool definitions. What a limiter
 * charges before the call when no `estimateTokens` is given; the call's reported usage
 * corrects it after.
 *
 * @example
 * estimateRequestTokens({ messages: [userMessage('List the files in src')] }); // 10
 */
export function estimateRequestTokens(request: ChatRequest): number {
  let chars = 0;
  const { system, tools } = request;
  if (typeof system === 'string') chars += system.length;
  else if (Array.isArray(system)) for (const block of system) chars += block.text.length;
  for (const message of request.messages ?? []) chars += messageChars(message);
  if (tools && tools.length > 0) chars += JSON.stringify(tools).length;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}
