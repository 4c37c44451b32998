import type { Observable } from 'rxjs';
import type { Message } from '../messages/types.js';
import type { ModelEvent } from './model-event.js';

/**
 * A JSON Schema object, as sent to providers.
 *
 * @example
 * const schema: JSONSchema = { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] };
 */
export type JSONSchema = Record<string, unknown>;

/**
 * A tool as providers see it: always plain JSON Schema (the core converts zod schemas).
 *
 * @example
 * const spec: ToolSpec = { name: 'read', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } } };
 */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: JSONSchema;
  /** Ask the provider for strict schema adherence (OpenAI `strict`). */
  strict?: boolean;
  /**
   * The provider's own declaration of this tool, keyed by provider name, sent instead of a
   * function declaration by that provider's adapter (OpenAI `{ type: 'shell' }`,
   * `{ type: 'apply_patch' }`, a custom tool's grammar…). Other adapters send the function.
   */
  providerTools?: Record<string, Record<string, unknown>>;
}

/** How the model may use tools. @example const choice: ToolChoice = { type: 'tool', name: 'finish' }; */
export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'tool'; name: string };

/**
 * How hard the model should think (OpenAI reasoning effort, Anthropic thinking budget).
 *
 * @example
 * model.stream({ messages, thinking: 'high' });
 */
export type ThinkingLevel = 'off' | 'minimal' | 'low' | 'medium' | 'high';

/**
 * Structured output: any JSON object, or JSON matching a schema.
 *
 * @example
 * const format: ResponseFormat = { type: 'json-schema', name: 'answer', schema: { type: 'object' } };
 */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json' }
  | { type: 'json-schema'; name: string; schema: JSONSchema; strict?: boolean };

/**
 * A block of the system prompt; `cache` marks a prompt-cache breakpoint (Anthropic).
 *
 * @example
 * const system: SystemBlock[] = [{ type: 'text', text: instructions, cache: true }, { type: 'text', text: 'Be brief.' }];
 */
export interface SystemBlock {
  type: 'text';
  text: string;
  cache?: boolean;
}

/**
 * One model call, made fresh for each call. `messages` is a read-only snapshot of the
 * transcript as of this call: later turns never change it, so a model may keep the request.
 *
 * @example
 * model.stream({ system: 'Be brief.', messages: [userMessage('Hi')], maxTokens: 256 }).subscribe(console.log);
 */
export interface ChatRequest {
  system?: string | SystemBlock[];
  messages: readonly Message[];
  tools?: ToolSpec[];
  toolChoice?: ToolChoice;
  maxTokens?: number;
  temperature?: number;
  thinking?: ThinkingLevel;
  responseFormat?: ResponseFormat;
  /** Mark the stable prefix (system, tools, transcript so far) for provider prompt caching. */
  cacheControl?: boolean;
  /** Passed through to the provider's request body as is, keyed by provider name. */
  providerOptions?: Record<string, Record<string, unknown>>;
}

/**
 * A language model behind a provider adapter. `stream` is cold: the request starts on
 * subscribe and unsubscribing aborts it. It emits `ModelEvent`s and ends with exactly one
 * `finish`, or errors with a typed `ProviderError`.
 *
 * @example
 * const model: ChatModel = openai('gpt-4o-mini');
 * runAgent({ model, prompt: 'Hello' }).subscribe(console.log);
 */
export interface ChatModel {
  readonly provider: string;
  readonly modelId: string;
  /**
   * Values that must never leave the process (its API key, tokens): the core redacts them
   * from every error of this model (`redactError`) before events, spans, the proxy or a log see it.
   */
  readonly secrets?: readonly string[];
  stream(request: ChatRequest): Observable<ModelEvent>;
}
