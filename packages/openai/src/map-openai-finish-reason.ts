import type { FinishReason } from '@rxagent/core';

/**
 * Maps a Chat Completions `finish_reason` to rxagent's `FinishReason`. `tool_calls` and the
 * deprecated `function_call` both mean tool calls; unknown or missing reasons (some
 * OpenAI-compatible servers invent their own) count as a normal stop.
 *
 * @example
 * mapOpenAIFinishReason('tool_calls'); // 'tool-calls'
 */
export function mapOpenAIFinishReason(reason: string | null | undefined): FinishReason {
  switch (reason) {
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    case 'error':
      return 'error';
    default:
      return 'stop';
  }
}

/**
 * Maps the Responses API `incomplete_details.reason` of a `response.incomplete` event.
 *
 * @example
 * mapOpenAIIncompleteReason('max_output_tokens'); // 'length'
 */
export function mapOpenAIIncompleteReason(reason: string | null | undefined): FinishReason {
  return reason === 'content_filter' ? 'content-filter' : 'length';
}
