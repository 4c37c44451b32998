import type { FinishReason } from '@rxagent/core';

const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
  'IMAGE_RECITATION',
  'LANGUAGE',
  // `promptFeedback.blockReason` values for a blocked prompt.
  'MODEL_ARMOR',
  'JAILBREAK',
]);

/**
 * Gemini's `finishReason` (or a prompt's `blockReason`) as rxagent's: `STOP` → `stop` (the
 * caller turns it into `tool-calls` when the client has calls to run), `MAX_TOKENS` →
 * `length`, safety, recitation, blocklist, prohibited content and the image variants →
 * `content-filter`, a malformed or unexpected function call (and too many) → `error`,
 * anything else (`OTHER`, unspecified, unknown) → `stop`.
 *
 * @example
 * mapGoogleFinishReason('SAFETY'); // 'content-filter'
 */
export function mapGoogleFinishReason(reason: string | undefined): FinishReason {
  if (reason === 'MAX_TOKENS') return 'length';
  if (reason !== undefined && CONTENT_FILTER.has(reason)) return 'content-filter';
  if (
    reason === 'MALFORMED_FUNCTION_CALL' ||
    reason === 'UNEXPECTED_TOOL_CALL' ||
    reason === 'TOO_MANY_TOOL_CALLS'
  ) {
    return 'error';
  }
  return 'stop';
}
