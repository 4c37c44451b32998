import { redact } from '../auth/auth-failure.js';
import type { FetchLike } from './limit-responses.js';

/**
 * `fetch` whose error answers (HTTP 400 and above) come back with their text stripped of the
 * given secrets (header values, tokens) and of anything credential-shaped, cut short: the SDK
 * quotes such bodies in its error messages, and a hostile server could echo the request's
 * `Authorization` header there.
 *
 * @example
 * const safe = redactErrorBodies(fetch, () => [apiKey]);
 */
export function redactErrorBodies(fetchFn: FetchLike, secrets: () => readonly string[]): FetchLike {
  return async (url, init) => {
    const response = await fetchFn(url, init);
    if (response.status < 400 || !response.body) return response;
    const text = await response.text().catch(() => '');
    const safe = new Response(redact(text, secrets()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    Object.defineProperty(safe, 'url', { value: response.url });
    return safe;
  };
}
