import type { AssistantMessage } from '@rxagent/core';
import { parseToolInput } from './parse-tool-input.js';

/**
 * One content block of a streaming response as accumulated so far, by kind. Server tool
 * blocks and anything unknown are `ignored`: they run at Anthropic and the loop has nothing
 * to do with them.
 *
 * @example
 * const block: ContentBlockState = { kind: 'tool', id: 'toolu_1', name: 'read', input: '{"pa', initial: '' };
 */
export type ContentBlockState =
  | { kind: 'text'; text: string }
  | { kind: 'thinking'; text: string; signature?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; input: string; initial: string; call?: ToolCallPartState }
  | { kind: 'ignored' };

type ToolCallPartState = ReturnType<typeof parseToolInput>;

/**
 * The assistant message content the blocks amount to, in block order. Empty text is left out
 * (the API refuses empty text blocks when they are sent back); a tool call still streaming is
 * parsed as far as it came (usually with `argsError`).
 *
 * @example
 * blocksToContent(new Map([[0, { kind: 'text', text: 'Hi' }]])); // [{ type: 'text', text: 'Hi' }]
 */
export function blocksToContent(blocks: ReadonlyMap<number, ContentBlockState>): AssistantMessage['content'] {
  const content: AssistantMessage['content'] = [];
  for (const index of [...blocks.keys()].sort((a, b) => a - b)) {
    const block = blocks.get(index);
    if (block?.kind === 'text' && block.text !== '') content.push({ type: 'text', text: block.text });
    if (block?.kind === 'thinking') {
      content.push({
        type: 'thinking',
        text: block.text,
        ...(block.signature ? { signature: block.signature } : {}),
      });
    }
    if (block?.kind === 'redacted') content.push({ type: 'thinking', text: '', redacted: block.data });
    if (block?.kind === 'tool') content.push(block.call ?? finishToolBlock(block));
  }
  return content;
}

/**
 * The tool call of a `tool_use` block: the streamed input, else the input the block started
 * with, else `{}`.
 *
 * @example
 * finishToolBlock({ kind: 'tool', id: 't', name: 'n', input: '{"a":1}', initial: '' }).args; // { a: 1 }
 */
export function finishToolBlock(block: Extract<ContentBlockState, { kind: 'tool' }>): ToolCallPartState {
  return parseToolInput(block.id, block.name, block.input || block.initial);
}
