import type OpenAI from 'openai';
import type { SchedulerLike } from 'rxjs';

/**
 * Which OpenAI API a model talks to.
 *
 * @example
 * const api: OpenAIApi = 'responses';
 */
export type OpenAIApi = 'chat' | 'responses';

/**
 * Options of `openai(modelId, options)`.
 *
 * @example
 * const local: OpenAIOptions = { baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama' };
 */
export interface OpenAIOptions {
  /** API key; default `process.env.OPENAI_API_KEY`. Not needed with `client`. */
  apiKey?: string;
  /** API root, e.g. an OpenAI-compatible server's `http://host:port/v1`; default `OPENAI_BASE_URL` or api.openai.com. */
  baseURL?: string;
  /** An existing client to use as is (its own key, base URL and options); requests still run with no SDK retries. */
  client?: OpenAI;
  /** `'chat'` (Chat Completions, the default, also for compatible servers) or `'responses'`. */
  api?: OpenAIApi;
  organization?: string;
  project?: string;
  /** Extra HTTP headers sent with every request. */
  headers?: Record<string, string>;
  /** Longest silence allowed inside a response body before `StreamIdleError` (default 60 000 ms; 0 disables). */
  idleTimeoutMs?: number;
  /** Clock of the idle timeout and of message timestamps (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /**
   * Longest wait for the response head, on `scheduler` (`ProviderTimeoutError`, retryable).
   * Default: none of ours; the SDK's own 10-minute timeout still applies.
   */
  requestTimeoutMs?: number;
}
