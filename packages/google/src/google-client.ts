import { GoogleGenAI } from '@google/genai';
import { AuthError } from '@rxagent/core';
import type { GoogleOptions } from './google-options.js';

/**
 * A client ready for requests and the credentials to keep out of errors.
 *
 * @example
 * const { client, secrets }: ResolvedGoogleClient = resolveGoogleClient({ apiKey: 'AIza…' });
 */
export interface ResolvedGoogleClient {
  client: GoogleGenAI;
  /** The API key (ours, or that of a client passed in), redacted from every error. */
  secrets: string[];
}

/**
 * The client `google()` talks through: the one passed in, else a new `GoogleGenAI` for the
 * Gemini API (the key from `apiKey`, `GEMINI_API_KEY` or `GOOGLE_API_KEY`: none is an
 * `AuthError`, so no request goes out without one) or for Vertex AI (`vertexai: true`, with
 * `project` / `location` or an express-mode key). The SDK gets no retry options: it never
 * retries, the core does.
 *
 * @example
 * const { client } = resolveGoogleClient({ apiKey: 'AIza…', baseURL: 'http://127.0.0.1:8080' });
 */
export function resolveGoogleClient(options: GoogleOptions): ResolvedGoogleClient {
  if (options.client) {
    const apiKey = (options.client as unknown as { apiKey?: unknown }).apiKey;
    return { client: options.client, secrets: typeof apiKey === 'string' && apiKey ? [apiKey] : [] };
  }
  const apiKey =
    options.apiKey || process.env['GEMINI_API_KEY'] || process.env['GOOGLE_API_KEY'] || undefined;
  if (!options.vertexai && !apiKey) {
    throw new AuthError(
      'No Gemini API key: pass `apiKey` to google() or set GEMINI_API_KEY (or GOOGLE_API_KEY). ' +
        'For Vertex AI, pass `vertexai: true` with `project` and `location`.',
      { provider: 'google' },
    );
  }
  const httpOptions = {
    ...(options.baseURL && { baseUrl: options.baseURL }),
    ...(options.apiVersion && { apiVersion: options.apiVersion }),
  };
  const client = new GoogleGenAI({
    ...(options.vertexai
      ? {
          vertexai: true,
          ...(options.project && { project: options.project }),
          ...(options.location && { location: options.location }),
          ...(options.apiKey && { apiKey: options.apiKey }),
          ...(options.googleAuthOptions && { googleAuthOptions: options.googleAuthOptions }),
        }
      : { vertexai: false, apiKey }),
    ...(Object.keys(httpOptions).length > 0 && { httpOptions }),
  });
  const key = options.vertexai ? options.apiKey : apiKey;
  return { client, secrets: key ? [key] : [] };
}
