import type { Observable } from 'rxjs';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import { textToolNames } from '@rxagent/core/provider';
import { OpenAIChatChunkMapper } from './map-openai-chat-chunk.js';
import { openAIModelSettings, type OpenAIModelSettings } from './openai-client.js';
import { openAIChatBody } from './openai-chat-request.js';
import { openaiEventStream } from './openai-event-stream.js';
import type { OpenAIOptions } from './openai-options.js';

/**
 * A `ChatModel` over Chat Completions (`POST /chat/completions`, streamed), for OpenAI and
 * OpenAI-compatible servers (Ollama, vLLM, LM Studio) through `baseURL`. Usually made with
 * `openai(modelId)`.
 *
 * @example
 * const model = new OpenAIChatModel('llama3.2', { baseURL: 'http://127.0.0.1:11434/v1', apiKey: 'ollama' });
 * runAgent({ model, prompt: 'Hello' }).subscribe(console.log);
 */
export class OpenAIChatModel implements ChatModel {
  readonly provider = 'openai';
  private readonly settings: OpenAIModelSettings;

  constructor(
    readonly modelId: string,
    options: OpenAIOptions = {},
  ) {
    this.settings = openAIModelSettings(options);
  }

  /** Streams one completion (free-form tools are declared as `{ input }` functions); cold: the request starts on subscribe, unsubscribing aborts it. */
  stream(request: ChatRequest): Observable<ModelEvent> {
    const { modelId, settings } = this;
    return openaiEventStream({
      modelId,
      ...settings,
      open: (client, options) => client.chat.completions.create(openAIChatBody(modelId, request), options),
      createMapper: (timestamp) => new OpenAIChatChunkMapper(modelId, timestamp, textToolNames(request)),
    });
  }
}
