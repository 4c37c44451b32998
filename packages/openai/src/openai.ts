import { AgentConfigError, type ChatModel } from '@rxagent/core';
import { OpenAIChatModel } from './openai-chat-model.js';
import type { OpenAIOptions } from './openai-options.js';
import { OpenAIResponsesModel } from './openai-responses-model.js';

/**
 * An OpenAI `ChatModel` (provider `'openai'`) over the official `openai` client: Chat
 * Completions by default (also OpenAI-compatible servers via `baseURL`), or the Responses API
 * with `api: 'responses'`. The key comes from `apiKey` or `OPENAI_API_KEY`; a missing key is
 * an `AuthError` when the stream is subscribed. The SDK never retries: the core does.
 *
 * @example
 * import { runAgent } from '@rxagent/core';
 * import { openai } from '@rxagent/openai';
 *
 * runAgent({ model: openai('gpt-4o-mini'), prompt: 'Say hi' }).subscribe(console.log);
 * const local = openai('qwen2.5:7b', { baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama' });
 * const reasoning = openai('gpt-5-mini', { api: 'responses', idleTimeoutMs: 120_000 });
 */
export function openai(modelId: string, options: OpenAIOptions = {}): ChatModel {
  if (typeof modelId !== 'string' || modelId === '') {
    throw new AgentConfigError("openai() needs a model id, e.g. openai('gpt-4o-mini').");
  }
  const api = options.api ?? 'chat';
  if (api === 'chat') return new OpenAIChatModel(modelId, options);
  if (api === 'responses') return new OpenAIResponsesModel(modelId, options);
  throw new AgentConfigError(`Unknown OpenAI api "${String(api)}": use 'chat' or 'responses'.`);
}
