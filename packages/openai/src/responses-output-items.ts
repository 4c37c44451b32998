import type { Citation, ImagePart, ProviderPart, ToolCallPart } from '@rxagent/core';
import type { ResponseOutputItem, ResponseOutputText } from 'openai/resources/responses/responses';

/**
 * The tool name each OpenAI-native client-side call kind calls: a tool registered under that
 * name (declared with `providerTools: { openai: { type: 'shell' } }` and the like) runs it.
 * Custom tool calls name their tool themselves.
 *
 * @example
 * NATIVE_CALL_TOOL_NAMES.apply_patch_call; // 'apply_patch'
 */
export const NATIVE_CALL_TOOL_NAMES: Readonly<Record<string, string>> = {
  local_shell_call: 'local_shell',
  shell_call: 'shell',
  apply_patch_call: 'apply_patch',
};

/** An output item, loosely: the fields this file reads, whatever the item's type. */
type LooseItem = ResponseOutputItem & Record<string, unknown>;

/**
 * The tool call of a finished client-side call item that is not a `function_call`: a custom
 * tool's call (its free-form `input` string is the arguments), `local_shell_call` (the
 * `action`), `shell_call` (the `action`), `apply_patch_call` (the `operation`). `providerKind`
 * keeps the kind so the result goes back as the matching `…_output` item. Undefined for other
 * items.
 *
 * @example
 * nativeToolCall({ type: 'custom_tool_call', id: 'ct_1', call_id: 'call_1', name: 'sql', input: 'SELECT 1' });
 * // { type: 'tool-call', id: 'call_1', name: 'sql', args: 'SELECT 1', providerKind: 'custom_tool_call', itemId: 'ct_1' }
 */
export function nativeToolCall(item: ResponseOutputItem): ToolCallPart | undefined {
  const loose = item as LooseItem;
  const base = (name: string, args: unknown): ToolCallPart => ({
    type: 'tool-call',
    id: stringField(loose, 'call_id') ?? stringField(loose, 'id') ?? '',
    name,
    args,
    providerKind: item.type,
    ...(typeof loose.id === 'string' && { itemId: loose.id }),
  });
  switch (item.type) {
    case 'custom_tool_call':
      return base(item.name, item.input);
    case 'local_shell_call':
    case 'shell_call':
      return base(NATIVE_CALL_TOOL_NAMES[item.type]!, loose.action ?? {});
    case 'apply_patch_call':
      return base(NATIVE_CALL_TOOL_NAMES[item.type]!, loose.operation ?? {});
    default:
      return undefined;
  }
}

/**
 * A built-in server tool's item (web search, file search, code interpreter, image generation,
 * remote MCP, tool search, compaction…) as an opaque provider part that goes back verbatim,
 * with a one-line readable `text`.
 *
 * @example
 * providerPartOf({ type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'rxjs' } });
 * // { type: 'provider', provider: 'openai', kind: 'web_search_call', data: {…}, text: 'web search: rxjs' }
 */
export function providerPartOf(item: ResponseOutputItem): ProviderPart {
  const text = readableText(item as LooseItem);
  return { type: 'provider', provider: 'openai', kind: item.type, data: item, ...(text && { text }) };
}

/**
 * The image an `image_generation_call` produced, as an image part (undefined without one).
 *
 * @example
 * generatedImage({ type: 'image_generation_call', id: 'ig_1', status: 'completed', result: 'iVBOR…' });
 * // { type: 'image', data: 'iVBOR…', mimeType: 'image/png' }
 */
export function generatedImage(item: ResponseOutputItem): ImagePart | undefined {
  if (item.type !== 'image_generation_call' || !item.result) return undefined;
  const format = stringField(item as LooseItem, 'output_format') ?? 'png';
  return { type: 'image', data: item.result, mimeType: `image/${format === 'jpg' ? 'jpeg' : format}` };
}

/**
 * `output_text` annotations as citations (URL and file citations, container files, file
 * paths); the original annotation is kept in `raw`.
 *
 * @example
 * citationsOf([{ type: 'url_citation', url: 'https://x.dev', title: 'X', start_index: 0, end_index: 4 }]);
 * // [{ kind: 'url', url: 'https://x.dev', title: 'X', start: 0, end: 4, raw: {…} }]
 */
export function citationsOf(annotations: ResponseOutputText['annotations'] | undefined): Citation[] {
  return (annotations ?? []).map((annotation): Citation => {
    switch (annotation.type) {
      case 'url_citation':
        return {
          kind: 'url',
          url: annotation.url,
          title: annotation.title,
          start: annotation.start_index,
          end: annotation.end_index,
          raw: annotation,
        };
      case 'file_citation':
      case 'container_file_citation':
      case 'file_path':
        return {
          kind: 'file',
          fileId: annotation.file_id,
          ...('filename' in annotation && { title: annotation.filename }),
          raw: annotation,
        };
      default:
        return { kind: 'other', raw: annotation };
    }
  });
}

function readableText(item: LooseItem): string | undefined {
  const action = (item.action ?? {}) as Record<string, unknown>;
  switch (item.type) {
    case 'web_search_call':
      return ['web search', stringField(action, 'query') ?? stringField(action, 'url')]
        .filter(Boolean)
        .join(': ');
    case 'file_search_call':
      return `file search: ${((item.queries as string[] | undefined) ?? []).join(', ')}`;
    case 'code_interpreter_call': {
      const logs = ((item.outputs as { type: string; logs?: string }[] | null | undefined) ?? [])
        .map((output) => output.logs ?? '')
        .filter(Boolean);
      return [`code interpreter:\n${stringField(item, 'code') ?? ''}`, ...logs].join('\n');
    }
    case 'image_generation_call':
      return `image generation${stringField(item, 'revised_prompt') ? `: ${stringField(item, 'revised_prompt')}` : ''}`;
    case 'mcp_call':
      return `mcp ${stringField(item, 'server_label') ?? ''}.${stringField(item, 'name') ?? ''}(${stringField(item, 'arguments') ?? ''})${stringField(item, 'output') ? ` → ${stringField(item, 'output')}` : ''}`;
    default:
      return item.type.replace(/_/g, ' ');
  }
}

function stringField(value: Record<string, unknown>, key: string): string | undefined {
  const field = value[key];
  return typeof field === 'string' && field !== '' ? field : undefined;
}
