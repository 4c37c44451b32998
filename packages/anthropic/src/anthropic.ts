import type Anthropic from '@anthropic-ai/sdk';
import type { SchedulerLike } from 'rxjs';
import { AnthropicChatModel } from './anthropic-chat-model.js';

/**
 * Options of `anthropic()`; all optional.
 *
 * @example
 * const options: AnthropicOptions = { baseURL: 'http://127.0.0.1:8080', idleTimeoutMs: 30_000, defaultMaxTokens: 8192 };
 */
export interface AnthropicOptions {
  /** API key; default `process.env.ANTHROPIC_API_KEY`. Sent by SDK 1.x as `Authorization: Bearer`. */
  apiKey?: string;
  /** API base URL (without `/v1`); default `process.env.ANTHROPIC_BASE_URL`, else the SDK's default. */
  baseURL?: string;
  /** An existing client to use instead (its own auth and base URL; SDK retries are still turned off per request). */
  client?: Anthropic;
  /** Extra HTTP headers on every request (e.g. `anthropic-beta`). */
  headers?: Record<string, string>;
  /** `max_tokens` when the request sets no `maxTokens` (default 4096; the thinking budget is added on top). */
  defaultMaxTokens?: number;
  /** Longest silence between stream events before `StreamIdleError` (default 60 000 ms; 0 disables). */
  idleTimeoutMs?: number;
  /** Clock of the idle timer and timestamps (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** Longest wait for the response head, on `scheduler` → `ProviderTimeoutError` (default none: the SDK's 10 minutes). */
  requestTimeoutMs?: number;
}

/**
 * A `ChatModel` for Anthropic's Messages API over the official `@anthropic-ai/sdk` client.
 * Streams are cold (the request starts on subscribe, unsubscribing aborts it), the SDK never
 * retries (the core does), and every failure is a typed core error.
 *
 * @param modelId The model, e.g. `'claude-sonnet-4-6'`.
 * @param options Key, base URL, client, timeouts…
 * @return The chat model (provider `'anthropic'`).
 *
 * @example
 * import { runAgent } from '@rxagent/core';
 * import { anthropic } from '@rxagent/anthropic';
 *
 * runAgent({ model: anthropic('claude-sonnet-4-6'), prompt: 'Hello' }).subscribe(console.log);
 */
export function anthropic(modelId: string, options: AnthropicOptions = {}): AnthropicChatModel {
  return new AnthropicChatModel(modelId, options);
}
