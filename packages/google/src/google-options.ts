import type { GoogleGenAI, GoogleGenAIOptions } from '@google/genai';
import type { SchedulerLike } from 'rxjs';

/**
 * Options of `google(modelId, options)`; all optional. Without `vertexai` the model talks to
 * the Gemini API with an API key; with it, to Vertex AI (`project` and `location`, signed in
 * through Google's application default credentials or `googleAuthOptions`, or an API key in
 * Vertex's express mode).
 *
 * @example
 * const gemini: GoogleOptions = { apiKey: process.env.GEMINI_API_KEY };
 * const vertex: GoogleOptions = { vertexai: true, project: 'my-project', location: 'us-central1' };
 */
export interface GoogleOptions {
  /** Gemini API key; default `GEMINI_API_KEY`, else `GOOGLE_API_KEY`. With `vertexai`, optional (express mode). */
  apiKey?: string;
  /** Use Vertex AI instead of the Gemini API. */
  vertexai?: boolean;
  /** Vertex project (default `GOOGLE_CLOUD_PROJECT`). */
  project?: string;
  /** Vertex location (default `GOOGLE_CLOUD_LOCATION`, else `global`). */
  location?: string;
  /** Vertex credentials (google-auth-library's options: `keyFile`, `credentials`, `authClient`…). */
  googleAuthOptions?: GoogleGenAIOptions['googleAuthOptions'];
  /** API root, e.g. a local server's `http://127.0.0.1:8080`; default the SDK's. */
  baseURL?: string;
  /** API version (default the SDK's: `v1beta` for the Gemini API, `v1beta1` for Vertex). */
  apiVersion?: string;
  /** An existing client to use as is (its own key, backend and base URL). */
  client?: GoogleGenAI;
  /** Extra HTTP headers on every request. */
  headers?: Record<string, string>;
  /** Longest silence inside a response body before `StreamIdleError` (default 60 000 ms; 0 disables). */
  idleTimeoutMs?: number;
  /** Longest wait for the response head, on `scheduler` → `ProviderTimeoutError` (default none). */
  requestTimeoutMs?: number;
  /** Clock of the timeouts and of message timestamps (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}
