import type { ImagePart, TextPart } from '@rxagent/core';
import type { RichToolOutput } from '@rxagent/core/provider';
import { contentParts, type McpContentBlock } from './map-content.js';

/** The part of an MCP `tools/call` result rxagent reads. */
export interface McpCallResult {
  content?: McpContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/**
 * An MCP result as what the model reads: its content blocks in order; `structuredContent` as
 * JSON when the server sent no content for it (servers are asked to send both, not all do);
 * `isError` as an error result.
 */
export function mapCallResult(result: McpCallResult): RichToolOutput {
  const content: (TextPart | ImagePart)[] = (result.content ?? []).flatMap(contentParts);
  if (result.structuredContent !== undefined && content.length === 0) {
    content.push({ type: 'text', text: JSON.stringify(result.structuredContent) });
  }
  if (content.length === 0) content.push({ type: 'text', text: '(no output)' });
  return { content, isError: result.isError === true };
}
