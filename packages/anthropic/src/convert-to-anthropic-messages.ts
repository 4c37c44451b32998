import type {
  ContentBlockParam,
  ImageBlockParam,
  TextBlockParam,
  ToolResultBlockParam,
} from '@anthropic-ai/sdk/resources/messages';
import type { AssistantMessage, ChatRequest, ImagePart, TextPart, ToolResultMessage } from '@rxagent/core';
import { toAnthropicImage } from './to-anthropic-image.js';

/**
 * A turn as sent to Anthropic (content always as blocks, so turns can be merged).
 *
 * @example
 * const turn: AnthropicTurn = { role: 'user', content: [{ type: 'text', text: 'Hi' }] };
 */
export interface AnthropicTurn {
  role: 'user' | 'assistant';
  content: ContentBlockParam[];
}

/**
 * The prompt part of a Messages request.
 *
 * @example
 * const prompt: AnthropicPrompt = { system: [{ type: 'text', text: 'Be brief.' }], messages: [] };
 */
export interface AnthropicPrompt {
  system: TextBlockParam[];
  messages: AnthropicTurn[];
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Converts the core transcript to Anthropic's `system` + `messages`. Tool results become
 * `tool_result` blocks in a user turn; consecutive turns of one role are merged so roles
 * alternate (several tool results and a following user message make ONE user turn).
 * Anthropic's own thinking is sent back only with its signature (or as `redacted_thinking`),
 * its server tools' blocks (provider parts) verbatim and its citations on their text; other
 * providers' thinking and parts are left out. A free-form tool's call (string arguments) goes
 * back as `{ input }`. Empty text and empty failed assistant turns are dropped; `SystemMessage`s are appended to the system
 * prompt. `cache: true` blocks, and with `cacheControl` the last system block and the last
 * block of the last turn, get `cache_control: { type: 'ephemeral' }`.
 *
 * @example
 * const { system, messages } = convertToAnthropicMessages({ system: 'Be brief.', messages: [userMessage('Hi')] });
 * // system: [{ type: 'text', text: 'Be brief.' }], messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]
 */
export function convertToAnthropicMessages(
  request: Pick<ChatRequest, 'system' | 'messages' | 'cacheControl'>,
): AnthropicPrompt {
  const system = systemBlocks(request.system);
  const messages: AnthropicTurn[] = [];
  const push = (role: AnthropicTurn['role'], content: ContentBlockParam[]) => {
    if (content.length === 0) return;
    const last = messages[messages.length - 1];
    if (last?.role === role) last.content.push(...content);
    else messages.push({ role, content });
  };
  for (const message of request.messages) {
    switch (message.role) {
      case 'system':
        if (message.content) system.push({ type: 'text', text: message.content });
        break;
      case 'user':
        push('user', userContent(message.content));
        break;
      case 'assistant':
        push('assistant', assistantContent(message));
        break;
      case 'tool':
        push('user', [toolResult(message)]);
        break;
    }
  }
  if (request.cacheControl) {
    const lastSystem = system[system.length - 1];
    if (lastSystem) lastSystem.cache_control = EPHEMERAL;
    markLastCacheable(messages[messages.length - 1]?.content ?? []);
  }
  return { system, messages };
}

function systemBlocks(system: ChatRequest['system']): TextBlockParam[] {
  if (system === undefined || system === '') return [];
  if (typeof system === 'string') return [{ type: 'text', text: system }];
  return system
    .filter((block) => block.text !== '')
    .map((block) => ({
      type: 'text',
      text: block.text,
      ...(block.cache ? { cache_control: EPHEMERAL } : {}),
    }));
}

function userContent(content: string | (TextPart | ImagePart)[]): ContentBlockParam[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return partsToBlocks(content);
}

function partsToBlocks(parts: readonly (TextPart | ImagePart)[]): (TextBlockParam | ImageBlockParam)[] {
  const blocks: (TextBlockParam | ImageBlockParam)[] = [];
  for (const part of parts) {
    if (part.type === 'text' && part.text !== '') blocks.push({ type: 'text', text: part.text });
    if (part.type === 'image') {
      const image = toAnthropicImage(part);
      if (image) blocks.push(image);
    }
  }
  return blocks;
}

function assistantContent(message: AssistantMessage): ContentBlockParam[] {
  const ours = message.provider === 'anthropic';
  const blocks: ContentBlockParam[] = [];
  for (const part of message.content) {
    if (part.type === 'text' && part.text !== '') {
      const citations = ours
        ? part.citations?.map((c) => c.raw).filter((raw) => raw !== undefined)
        : undefined;
      blocks.push({
        type: 'text',
        text: part.text,
        ...(citations?.length ? { citations: citations as TextBlockParam['citations'] } : {}),
      });
    }
    if (part.type === 'thinking' && ours && part.redacted !== undefined) {
      blocks.push({ type: 'redacted_thinking', data: part.redacted });
    } else if (part.type === 'thinking' && ours && part.signature) {
      // Anthropic verifies the signature against the text: both go back verbatim.
      blocks.push({ type: 'thinking', thinking: part.text, signature: part.signature });
    }
    if (part.type === 'tool-call') {
      blocks.push({
        type: 'tool_use',
        id: part.id,
        name: part.name,
        input: typeof part.args === 'string' ? { input: part.args } : isObject(part.args) ? part.args : {},
      });
    }
    if (part.type === 'provider' && part.provider === 'anthropic')
      blocks.push(part.data as ContentBlockParam);
  }
  return blocks;
}

function toolResult(message: ToolResultMessage): ToolResultBlockParam {
  const content = partsToBlocks(message.content);
  return {
    type: 'tool_result',
    tool_use_id: message.toolCallId,
    ...(content.length > 0 ? { content } : {}),
    ...(message.isError ? { is_error: true } : {}),
  };
}

/** Thinking blocks cannot carry `cache_control`: the breakpoint goes on the last block that can. */
function markLastCacheable(blocks: ContentBlockParam[]): void {
  for (let i = blocks.length - 1; i >= 0; i--) {
    const block = blocks[i];
    if (block && block.type !== 'thinking' && block.type !== 'redacted_thinking') {
      block.cache_control = EPHEMERAL;
      return;
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
