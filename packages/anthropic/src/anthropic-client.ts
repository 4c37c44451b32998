import Anthropic from '@anthropic-ai/sdk';
import { AuthError } from '@rxagent/core';
import type { AnthropicOptions } from './anthropic.js';

/**
 * A client ready for requests, and the credentials it uses (to keep them out of errors).
 *
 * @example
 * const { client, apiKey }: ResolvedAnthropicClient = resolveAnthropicClient({ apiKey: 'sk-ant-…' });
 */
export interface ResolvedAnthropicClient {
  client: Anthropic;
  /** The API key (ours, or the static `apiKey` of a client passed in). */
  apiKey?: string;
  /** The static `authToken` of a client passed in. */
  authToken?: string;
}

/**
 * The client `anthropic()` talks through: the one passed in (with its static `apiKey` /
 * `authToken`, redacted from errors like our own key), else a new one with the key from the
 * options or `ANTHROPIC_API_KEY` and `maxRetries: 0` (the core owns retries). Throws an
 * `AuthError` when there is no key, so no request is ever sent without one.
 *
 * @example
 * const { client } = resolveAnthropicClient({ apiKey: 'sk-ant-…', baseURL: 'http://127.0.0.1:8080' });
 */
export function resolveAnthropicClient(options: AnthropicOptions): ResolvedAnthropicClient {
  if (options.client) {
    const { client } = options;
    // Read as unknown: a client from another SDK copy, or a stand-in, may lack either field.
    const apiKey = stringOrUndefined((client as { apiKey?: unknown }).apiKey);
    const authToken = stringOrUndefined((client as { authToken?: unknown }).authToken);
    return { client, ...(apiKey ? { apiKey } : {}), ...(authToken ? { authToken } : {}) };
  }
  const apiKey = options.apiKey || process.env['ANTHROPIC_API_KEY'];
  if (!apiKey) {
    throw new AuthError(
      'No Anthropic API key: pass `apiKey` to anthropic() or set the ANTHROPIC_API_KEY environment variable.',
      { provider: 'anthropic' },
    );
  }
  const baseURL = options.baseURL || process.env['ANTHROPIC_BASE_URL'];
  const client = new Anthropic({
    apiKey,
    maxRetries: 0,
    ...(baseURL ? { baseURL } : {}),
  });
  return { client, apiKey };
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
