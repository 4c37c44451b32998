import type { AssistantMessage, AssistantPart, Citation, ProviderPart, ToolCallPart } from '@rxagent/core';
import { parseToolArguments } from '@rxagent/core/provider';

/**
 * One content block of a streaming response as accumulated so far, by kind. Server tools'
 * blocks (`server_tool_use`, their results, MCP connector blocks, anything newer) are
 * `server`: kept whole as provider parts, since Anthropic needs them back on the next request.
 * `position` is the part's place in the finished message, given when the block first shows.
 *
 * @example
 * const block: ContentBlockState = { kind: 'tool', id: 'toolu_1', name: 'read', input: '{"pa', initial: '' };
 */
export type ContentBlockState = { position?: number } & (
  | { kind: 'text'; text: string; citations?: unknown[] }
  | { kind: 'thinking'; text: string; signature?: string }
  | { kind: 'redacted'; data: string }
  | { kind: 'tool'; id: string; name: string; input: string; initial: string; call?: ToolCallPartState }
  | { kind: 'server'; block: Record<string, unknown>; input: string }
);

type ToolCallPartState = ToolCallPart;

/**
 * The assistant message content the blocks amount to, in the order their parts first showed
 * (the event `index` of each part). Blocks that never showed (empty text) are left out; a tool
 * call still streaming is parsed as far as it came (usually with `argsError`).
 *
 * @example
 * blocksToContent(new Map([[0, { kind: 'text', text: 'Hi', position: 0 }]])); // [{ type: 'text', text: 'Hi' }]
 */
export function blocksToContent(blocks: ReadonlyMap<number, ContentBlockState>): AssistantMessage['content'] {
  const placed = [...blocks.values()].filter((block) => block.position !== undefined);
  placed.sort((a, b) => a.position! - b.position!);
  return placed.map(partOf);
}

/**
 * The part one block amounts to.
 *
 * @example
 * partOf({ kind: 'redacted', data: 'EmwK' }); // { type: 'thinking', text: '', redacted: 'EmwK' }
 */
export function partOf(block: ContentBlockState): AssistantPart {
  switch (block.kind) {
    case 'text':
      return block.citations?.length
        ? { type: 'text', text: block.text, citations: block.citations.map(toCitation) }
        : { type: 'text', text: block.text };
    case 'thinking':
      return {
        type: 'thinking',
        text: block.text,
        ...(block.signature ? { signature: block.signature } : {}),
      };
    case 'redacted':
      return { type: 'thinking', text: '', redacted: block.data };
    case 'tool':
      return block.call ?? finishToolBlock(block);
    case 'server':
      return serverPart(block);
  }
}

/**
 * The tool call of a `tool_use` block: the streamed input, else the input the block started
 * with, else `{}`.
 *
 * @example
 * finishToolBlock({ kind: 'tool', id: 't', name: 'n', input: '{"a":1}', initial: '' }).args; // { a: 1 }
 */
export function finishToolBlock(block: Extract<ContentBlockState, { kind: 'tool' }>): ToolCallPartState {
  return parseToolArguments(block.id, block.name, block.input || block.initial);
}

function serverPart(state: Extract<ContentBlockState, { kind: 'server' }>): ProviderPart {
  const data = { ...state.block };
  if (state.input) {
    try {
      data.input = JSON.parse(state.input) as unknown;
    } catch {
      data.input = state.input;
    }
  }
  const kind = String(data.type);
  return { type: 'provider', provider: 'anthropic', kind, data, text: readable(kind, data) };
}

function readable(kind: string, data: Record<string, unknown>): string {
  const input = (typeof data.input === 'object' && data.input !== null ? data.input : {}) as Record<
    string,
    unknown
  >;
  if (kind === 'server_tool_use' || kind === 'mcp_tool_use') {
    const detail = [input.query, input.url, input.code, input.command].find((v) => typeof v === 'string');
    const name = typeof data.name === 'string' ? data.name : kind;
    return `${name}${detail ? `: ${detail}` : ''}`;
  }
  const content = data.content;
  if (Array.isArray(content)) {
    const lines = content
      .map((item) => {
        const entry = (item ?? {}) as Record<string, unknown>;
        return [entry.title, entry.url, entry.text].filter((v) => typeof v === 'string').join(' ');
      })
      .filter(Boolean);
    if (lines.length > 0) return `${kind}:\n${lines.join('\n')}`;
  }
  if (typeof content === 'object' && content !== null) {
    const result = content as Record<string, unknown>;
    const text = [result.stdout, result.stderr, result.error_code].filter((v) => typeof v === 'string' && v);
    if (text.length > 0) return `${kind}:\n${text.join('\n')}`;
  }
  return kind.replace(/_/g, ' ');
}

function toCitation(raw: unknown): Citation {
  const c = (raw ?? {}) as Record<string, unknown>;
  const str = (key: string): string | undefined => {
    const value = c[key];
    return typeof value === 'string' ? value : undefined;
  };
  const kind: Citation['kind'] =
    c.type === 'web_search_result_location'
      ? 'url'
      : c.type === 'search_result_location'
        ? 'search-result'
        : typeof c.type === 'string' && c.type.endsWith('_location')
          ? 'document'
          : 'other';
  const citation: Citation = { kind, raw };
  const url = str('url') ?? str('source');
  const title = str('title') ?? str('document_title');
  const citedText = str('cited_text');
  if (url) citation.url = url;
  if (title) citation.title = title;
  if (citedText) citation.citedText = citedText;
  return citation;
}
