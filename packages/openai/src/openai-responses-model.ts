import type { Observable } from 'rxjs';
import type { ChatModel, ChatRequest, ModelEvent } from '@rxagent/core';
import { OpenAIResponsesEventMapper } from './map-openai-responses-event.js';
import { openAIModelSettings, type OpenAIModelSettings } from './openai-client.js';
import { openaiEventStream } from './openai-event-stream.js';
import type { OpenAIOptions } from './openai-options.js';
import { openAIResponsesBody } from './openai-responses-request.js';

/**
 * A `ChatModel` over the Responses API (`POST /responses`, streamed, `store: false`), with
 * reasoning summaries as thinking. Usually made with `openai(modelId, { api: 'responses' })`.
 *
 * @example
 * const model = new OpenAIResponsesModel('gpt-5-mini');
 * runAgent({ model, prompt: 'Hello', thinking: 'low' }).subscribe(console.log);
 */
export class OpenAIResponsesModel implements ChatModel {
  readonly provider = 'openai';
  private readonly settings: OpenAIModelSettings;

  constructor(
    readonly modelId: string,
    options: OpenAIOptions = {},
  ) {
    this.settings = openAIModelSettings(options);
  }

  /** Streams one response; cold: the request starts on subscribe, unsubscribing aborts it. */
  stream(request: ChatRequest): Observable<ModelEvent> {
    const { modelId, settings } = this;
    return openaiEventStream({
      modelId,
      ...settings,
      open: (client, options) => client.responses.create(openAIResponsesBody(modelId, request), options),
      createMapper: (timestamp) => new OpenAIResponsesEventMapper(modelId, timestamp, request.tools ?? []),
    });
  }
}
