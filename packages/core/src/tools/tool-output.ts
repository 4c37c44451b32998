import type { ToolResult } from '../events/agent-event.js';
import type { AnyTool, RichToolOutput } from './tool.js';

function isRichOutput(value: unknown): value is RichToolOutput {
  if (typeof value !== 'object' || value === null) return false;
  const content = (value as { content?: unknown }).content;
  return (
    Array.isArray(content) &&
    content.every(
      (p) =>
        typeof p === 'object' &&
        p !== null &&
        (((p as { type?: unknown }).type === 'text' && typeof (p as { text?: unknown }).text === 'string') ||
          (p as { type?: unknown }).type === 'image'),
    )
  );
}

function stringify(value: unknown): string {
  if (value === undefined) return '';
  try {
    // JSON.stringify gives undefined for functions and symbols: say what it was instead.
    return JSON.stringify(value) ?? `[${typeof value}]`;
  } catch (error) {
    return `[unserializable ${typeof value}: ${error instanceof Error ? error.message : 'unknown error'}]`;
  }
}

/**
 * What the model reads for a tool's return value: strings as they are, `{ content: [...] }`
 * (text and images) as given, anything else as JSON. The tool's `toModelOutput` wins.
 *
 * @example
 * toToolResult(undefined, { tempC: 21 }); // { content: [{ type: 'text', text: '{"tempC":21}' }], isError: false }
 */
export function toToolResult(tool: AnyTool | undefined, value: unknown): ToolResult {
  const output: unknown = tool?.toModelOutput ? tool.toModelOutput(value) : value;
  if (typeof output === 'string') return { content: [{ type: 'text', text: output }], isError: false };
  if (isRichOutput(output)) {
    const result: ToolResult = { content: output.content, isError: output.isError === true };
    if (output.usage) result.usage = output.usage;
    return result;
  }
  return { content: [{ type: 'text', text: stringify(output) }], isError: false };
}

/**
 * An error result with the given text.
 *
 * @example
 * errorToolResult('Tool "x" timed out after 30000 ms.');
 */
export function errorToolResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/**
 * The text the model reads for an error thrown by a tool.
 *
 * @example
 * errorText(new Error('ENOENT')); // 'ENOENT'
 */
export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  return stringify(error);
}
