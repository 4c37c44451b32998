import type { AssistantMessage, ChatRequest, ImagePart, TextPart, ToolCallPart } from '@rxagent/core';
import type { ThinkingLevel } from '@rxagent/core/provider';

/**
 * The system prompt as one string: `SystemBlock`s joined by blank lines (OpenAI has no cache
 * breakpoints, so their `cache` flag is dropped). Undefined when there is none.
 *
 * @example
 * systemText([{ type: 'text', text: 'A' }, { type: 'text', text: 'B', cache: true }]); // 'A\n\nB'
 */
export function systemText(system: ChatRequest['system']): string | undefined {
  if (system === undefined) return undefined;
  const text = typeof system === 'string' ? system : system.map((block) => block.text).join('\n\n');
  return text === '' ? undefined : text;
}

/**
 * An image as OpenAI wants it: its `url`, or its base64 `data` as a data URL (the media type
 * guessed from the bytes when `mimeType` is missing). Undefined when it has neither.
 *
 * @example
 * imageUrl({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }); // 'data:image/png;base64,iVBORw0KGgo='
 */
export function imageUrl(part: ImagePart): string | undefined {
  if (part.data) return `data:${part.mimeType ?? guessMimeType(part.data)};base64,${part.data}`;
  return part.url || undefined;
}

function guessMimeType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

/**
 * The argument text to send back for a call: the raw text the model produced when it did
 * not parse, else the JSON of its arguments.
 *
 * @example
 * toolArgumentsText({ type: 'tool-call', id: 'c1', name: 'ls', args: { dir: '.' } }); // '{"dir":"."}'
 */
export function toolArgumentsText(call: ToolCallPart): string {
  if (call.argsError !== undefined && call.argsText !== undefined) return call.argsText;
  // A free-form tool's text goes back in the `{ input }` shape it was declared with.
  if (typeof call.args === 'string') return JSON.stringify({ input: call.args });
  return JSON.stringify(call.args ?? {});
}

/**
 * What a tool result image becomes where only text is allowed (Chat Completions tool messages).
 *
 * @example
 * toolResultText([{ type: 'image', data }]); // IMAGE_OMITTED_TEXT
 */
export const IMAGE_OMITTED_TEXT = '[image omitted: this API takes only text in tool results]';

/**
 * A tool result's text parts joined by newlines; images become `IMAGE_OMITTED_TEXT`.
 *
 * @example
 * toolResultText([{ type: 'text', text: 'ok' }]); // 'ok'
 */
export function toolResultText(content: readonly (TextPart | ImagePart)[]): string {
  return content.map((part) => (part.type === 'text' ? part.text : IMAGE_OMITTED_TEXT)).join('\n');
}

/**
 * Whether an assistant message is left out of the request: a failed call with nothing in it.
 *
 * @example
 * isSkippedAssistant({ ...message, stopReason: 'error', content: [] }); // true
 */
export function isSkippedAssistant(message: AssistantMessage): boolean {
  return message.stopReason === 'error' && message.content.length === 0;
}

/**
 * rxagent's thinking level → OpenAI `reasoning_effort` (`off` → not sent).
 *
 * @example
 * reasoningEffort('high'); // 'high'
 */
export function reasoningEffort(
  level: ThinkingLevel | undefined,
): 'minimal' | 'low' | 'medium' | 'high' | undefined {
  return level === undefined || level === 'off' ? undefined : level;
}
