import { AgentConfigError } from '@rxagent/core';
import { GoogleChatModel } from './google-chat-model.js';
import type { GoogleOptions } from './google-options.js';

/**
 * A Gemini `ChatModel` (provider `'google'`) over the official `@google/genai` client, for the
 * Gemini API (key from `apiKey`, `GEMINI_API_KEY` or `GOOGLE_API_KEY`) or Vertex AI
 * (`vertexai: true`). Streams are cold, the SDK never retries (the core does), and every failure
 * is a typed core error; a missing key is an `AuthError` when the stream is subscribed.
 *
 * @param modelId The model, e.g. `'gemini-2.5-flash'`.
 * @param options Key or Vertex project, base URL, client, timeouts…
 * @return The chat model.
 *
 * @example
 * import { runAgent } from '@rxagent/core';
 * import { google } from '@rxagent/google';
 *
 * runAgent({ model: google('gemini-2.5-flash'), prompt: 'Hello' }).subscribe(console.log);
 * const vertex = google('gemini-2.5-pro', { vertexai: true, project: 'my-project', location: 'us-central1' });
 */
export function google(modelId: string, options: GoogleOptions = {}): GoogleChatModel {
  if (typeof modelId !== 'string' || modelId === '') {
    throw new AgentConfigError("google() needs a model id, e.g. google('gemini-2.5-flash').");
  }
  return new GoogleChatModel(modelId, options);
}
