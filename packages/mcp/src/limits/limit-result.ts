import type { RichToolOutput } from '@rxagent/core/provider';
import { mapCallResult, type McpCallResult } from '../map-call-result.js';
import type { ResolvedMcpLimits } from './mcp-limits.js';

/** Bytes of what a result puts into the transcript: UTF-8 text and (base64) image data. */
function resultBytes(output: RichToolOutput): number {
  let bytes = 0;
  for (const part of output.content) {
    bytes += part.type === 'text' ? Buffer.byteLength(part.text, 'utf8') : (part.data?.length ?? 0);
  }
  return bytes;
}

const refused = (text: string): RichToolOutput => ({ content: [{ type: 'text', text }], isError: true });

/**
 * An MCP result as what the model reads, within the limits: a result with more content parts
 * than `maxResultParts` (counted before any of them is mapped) or more bytes than
 * `maxResultBytes` becomes an error result that says so, and nothing of it enters the
 * transcript.
 *
 * @example
 * boundedResult(result, limits, 'docs', 'search'); // { content: [...], isError: false }
 */
export function boundedResult(
  result: McpCallResult,
  limits: Pick<ResolvedMcpLimits, 'maxResultBytes' | 'maxResultParts'>,
  server: string,
  tool: string,
): RichToolOutput {
  const parts = Array.isArray(result.content) ? result.content.length : 0;
  if (parts > limits.maxResultParts) {
    return refused(
      `The MCP server "${server}" answered "${tool}" with ${parts} content parts, over the limit of ` +
        `${limits.maxResultParts} (limits.maxResultParts): the result was dropped.`,
    );
  }
  const output = mapCallResult(result);
  const bytes = resultBytes(output);
  if (bytes > limits.maxResultBytes) {
    return refused(
      `The MCP server "${server}" answered "${tool}" with ${bytes} bytes of content, over the limit of ` +
        `${limits.maxResultBytes} (limits.maxResultBytes): the result was dropped.`,
    );
  }
  return output;
}
