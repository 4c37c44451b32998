import OpenAI from 'openai';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { AuthError } from '@rxagent/core';
import type { ClientHandle, SdkRequestOptions } from './openai-event-stream.js';
import type { OpenAIOptions } from './openai-options.js';

/**
 * What a model needs besides its id: the client (made on first use) and the stream settings.
 *
 * @example
 * const { scheduler, idleTimeoutMs } = openAIModelSettings({ idleTimeoutMs: 120_000 });
 */
export interface OpenAIModelSettings {
  connect(): ClientHandle;
  scheduler: SchedulerLike;
  idleTimeoutMs: number;
  requestTimeoutMs?: number;
  requestOptions: Omit<SdkRequestOptions, 'signal' | 'maxRetries'>;
}

/**
 * Default of `idleTimeoutMs`: a minute of silence inside a response body.
 *
 * @example
 * openai('o3', { idleTimeoutMs: 3 * DEFAULT_IDLE_TIMEOUT_MS });
 */
export const DEFAULT_IDLE_TIMEOUT_MS = 60_000;

/**
 * Resolves options into model settings. The client is created on the first request, so a
 * missing key surfaces as an `AuthError` from `stream()` (on subscribe), never from the
 * factory; the key comes from `apiKey` or `OPENAI_API_KEY`, and the SDK's own retries are off.
 *
 * @example
 * const settings = openAIModelSettings({ apiKey: 'sk-…' });
 * const { client } = settings.connect();
 */
export function openAIModelSettings(options: OpenAIOptions): OpenAIModelSettings {
  let created: ClientHandle | undefined;
  const connect = (): ClientHandle => {
    if (options.client) return { client: options.client, secret: options.client.apiKey ?? undefined };
    if (created) return created;
    const apiKey = options.apiKey || process.env.OPENAI_API_KEY;
    if (!apiKey) {
      throw new AuthError(
        'No OpenAI API key: pass apiKey to openai(modelId, { apiKey }) or set OPENAI_API_KEY. ' +
          '(Local OpenAI-compatible servers accept any non-empty key.)',
        { provider: 'openai' },
      );
    }
    const client = new OpenAI({
      apiKey,
      baseURL: options.baseURL || undefined,
      organization: options.organization,
      project: options.project,
      maxRetries: 0,
    });
    created = { client, secret: apiKey };
    return created;
  };
  return {
    connect,
    scheduler: options.scheduler ?? asyncScheduler,
    idleTimeoutMs: options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
    ...(options.requestTimeoutMs !== undefined && { requestTimeoutMs: options.requestTimeoutMs }),
    requestOptions: options.headers ? { headers: options.headers } : {},
  };
}
