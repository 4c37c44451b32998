import type { AssistantMessage, ModelEvent } from '@rxagent/core';
import type { Response, ResponseOutputItem, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { AssistantDraft, type DraftEnding } from './assistant-draft.js';
import { mapOpenAIIncompleteReason } from './map-openai-finish-reason.js';
import { mapOpenAIResponsesUsage } from './map-openai-usage.js';
import { InStreamError } from './openai-error.js';
import type { ChunkMapper } from './openai-event-stream.js';

/**
 * Responses API stream events → `ModelEvent`s. Output text and refusals → text, reasoning
 * summary / reasoning text → thinking, function calls → tool calls (the `call_id` is the
 * call's id), each part keyed by its `output_index`. The terminal event (`response.completed`,
 * `response.incomplete`) ends the stream; `response.failed` and `error` events throw
 * `InStreamError`. Unknown events (built-in tools, `keepalive`…) are ignored.
 *
 * @example
 * const mapper = new OpenAIResponsesEventMapper('gpt-5-mini', Date.now());
 * for await (const event of stream) { events.push(...mapper.map(event)); if (mapper.done) break; }
 * events.push(...mapper.flush());
 */
export class OpenAIResponsesEventMapper implements ChunkMapper<ResponseStreamEvent> {
  private readonly draft: AssistantDraft;
  private ending: DraftEnding | undefined;
  private refused = false;
  private model: string | undefined;
  private responseId: string | undefined;

  constructor(modelId: string, timestamp: number) {
    this.draft = new AssistantDraft(modelId, timestamp);
  }

  get terminated(): boolean {
    return this.ending !== undefined;
  }

  get done(): boolean {
    return this.terminated;
  }

  map(event: ResponseStreamEvent): ModelEvent[] {
    switch (event.type) {
      case 'response.created':
      case 'response.in_progress':
        this.note(event.response);
        return [];
      case 'response.output_item.added':
        return this.itemAdded(event.output_index, event.item);
      case 'response.output_text.delta':
        return this.draft.text(`${event.output_index}:${event.content_index}`, event.delta);
      case 'response.refusal.delta':
        this.refused = true;
        return this.draft.text(`${event.output_index}:${event.content_index}`, event.delta);
      case 'response.reasoning_summary_text.delta':
        return this.draft.thinking(`${event.output_index}:summary:${event.summary_index}`, event.delta);
      case 'response.reasoning_text.delta':
        return this.draft.thinking(`${event.output_index}:text:${event.content_index}`, event.delta);
      case 'response.function_call_arguments.delta':
        return this.draft.callDelta(String(event.output_index), event.delta);
      case 'response.function_call_arguments.done':
        this.draft.setCallArguments(String(event.output_index), event.arguments);
        return [];
      case 'response.output_item.done':
        return this.itemDone(event.output_index, event.item);
      case 'response.completed':
        return this.end(event.response, this.refused ? 'content-filter' : 'stop');
      case 'response.incomplete':
        return this.end(event.response, mapOpenAIIncompleteReason(event.response.incomplete_details?.reason));
      case 'response.failed':
        throw new InStreamError(event.response.error ?? { message: 'The response failed without details.' });
      case 'error':
        throw new InStreamError(event);
      default:
        return [];
    }
  }

  flush(): ModelEvent[] {
    return this.ending ? this.draft.finish(this.ending) : [];
  }

  partial(why: string): AssistantMessage {
    return this.draft.partial(why);
  }

  private itemAdded(outputIndex: number, item: ResponseOutputItem): ModelEvent[] {
    if (item.type !== 'function_call') return [];
    const key = String(outputIndex);
    return [
      ...this.draft.startCall(key, item.call_id, item.name),
      ...this.draft.callDelta(key, item.arguments),
    ];
  }

  private itemDone(outputIndex: number, item: ResponseOutputItem): ModelEvent[] {
    if (item.type !== 'function_call') return [];
    const key = String(outputIndex);
    const events = this.draft.startCall(key, item.call_id, item.name);
    if (typeof item.arguments === 'string') this.draft.setCallArguments(key, item.arguments);
    return [...events, ...this.draft.endCall(key)];
  }

  private note(response: Response | undefined): void {
    this.model ??= response?.model || undefined;
    this.responseId ??= response?.id || undefined;
  }

  private end(response: Response, reason: DraftEnding['reason']): ModelEvent[] {
    this.note(response);
    this.ending = {
      reason: this.refused ? 'content-filter' : reason,
      ...(response.usage && { usage: mapOpenAIResponsesUsage(response.usage) }),
      ...(this.model && { model: this.model }),
      ...(this.responseId && { responseId: this.responseId }),
    };
    return [];
  }
}
