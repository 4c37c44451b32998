import type { AssistantMessage, ModelEvent } from '@rxagent/core';
import type { ToolSpec } from '@rxagent/core/provider';
import type {
  Response,
  ResponseOutputItem,
  ResponseOutputMessage,
  ResponseReasoningItem,
  ResponseStreamEvent,
} from 'openai/resources/responses/responses';
import { AssistantDraft, type DraftEnding } from './assistant-draft.js';
import { mapOpenAIIncompleteReason } from './map-openai-finish-reason.js';
import { mcpApprovalCall, mcpToolNames } from './mcp-approval.js';
import { mapOpenAIResponsesUsage } from './map-openai-usage.js';
import { InStreamError } from './openai-error.js';
import type { ChunkMapper } from './openai-event-stream.js';
import { citationsOf, generatedImage, nativeToolCall, providerPartOf } from './responses-output-items.js';
import { ServerRunCalls } from './server-run-calls.js';

/**
 * Responses API stream events → `ModelEvent`s. Output text and refusals → text (with its
 * annotations as `citations` and the message's `phase`), reasoning summary / reasoning text →
 * thinking (completed with the item's `id` and `encrypted_content`), function calls, custom
 * tool calls, `local_shell_call`, `shell_call` and `apply_patch_call` → tool calls (the
 * `call_id` is the call's id), built-in server tools' items → opaque provider parts (a
 * generated image also as an image part), each part keyed by its `output_index`. The terminal
 * event (`response.completed`, `response.incomplete`) ends the stream; `response.failed` and
 * `error` events throw `InStreamError`. Progress events of server tools and `keepalive` are
 * ignored: their items arrive whole in `response.output_item.done`.
 *
 * @example
 * const mapper = new OpenAIResponsesEventMapper('gpt-5-mini', Date.now());
 * for await (const event of stream) { events.push(...mapper.map(event)); if (mapper.done) break; }
 * events.push(...mapper.flush());
 */
export class OpenAIResponsesEventMapper implements ChunkMapper<ResponseStreamEvent> {
  private readonly draft: AssistantDraft;
  private readonly calls: ServerRunCalls;
  private ending: DraftEnding | undefined;
  private refused = false;
  private model: string | undefined;
  private responseId: string | undefined;

  private readonly mcpTools: ReadonlyMap<string, string>;

  /**
   * @param tools The request's tools: they tell a server-side tool's custom calls (xAI) from
   *   the client's, and name the tool an MCP approval request is a call of (undefined: every
   *   custom call is the client's).
   */
  constructor(modelId: string, timestamp: number, tools?: readonly ToolSpec[]) {
    this.draft = new AssistantDraft(modelId, timestamp);
    this.calls = new ServerRunCalls(tools && new Set(tools.map((spec) => spec.name)));
    this.mcpTools = mcpToolNames(tools);
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
      case 'response.custom_tool_call_input.delta':
        if (this.calls.isServerKey(String(event.output_index))) return [];
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
    const key = String(outputIndex);
    if (ServerRunCalls.isCall(item)) this.calls.noteCall(key, item);
    if (this.calls.isServerKey(key)) return [];
    if (item.type === 'function_call') {
      return [
        ...this.draft.startCall(key, item.call_id, item.name),
        ...this.draft.callDelta(key, item.arguments),
      ];
    }
    if (item.type === 'custom_tool_call') {
      return [
        ...this.draft.startCall(key, item.call_id, item.name),
        ...this.draft.callDelta(key, item.input),
      ];
    }
    return [];
  }

  private itemDone(outputIndex: number, item: ResponseOutputItem): ModelEvent[] {
    const key = String(outputIndex);
    if (ServerRunCalls.isCall(item)) this.calls.noteCall(key, item);
    if (this.calls.isServerKey(key)) return this.draft.serverCall(key, providerPartOf(item));
    // An output item of a call of this response: the server ran that call.
    const answered = this.calls.answered(item);
    if (answered !== undefined) {
      return [
        ...this.draft.serverCall(answered, providerPartOf(this.calls.itemAt(answered) ?? item)),
        ...this.draft.setPart('part', key, providerPartOf(item)),
      ];
    }
    switch (item.type) {
      case 'function_call': {
        const events = this.draft.startCall(key, item.call_id, item.name);
        if (typeof item.arguments === 'string') this.draft.setCallArguments(key, item.arguments);
        return [...events, ...this.draft.endCall(key)];
      }
      case 'message':
        return this.messageDone(key, item);
      case 'reasoning':
        return this.reasoningDone(key, item);
      case 'mcp_approval_request':
        return this.draft.endCallWith(key, mcpApprovalCall(item, this.mcpTools));
      default: {
        const call = nativeToolCall(item);
        if (call) return this.draft.endCallWith(key, call);
        const image = generatedImage(item);
        return [
          ...this.draft.setPart('part', key, providerPartOf(item)),
          ...(image ? this.draft.setPart('part', `${key}:image`, image) : []),
        ];
      }
    }
  }

  /** Text parts get their citations and phase, which only the finished item carries. */
  private messageDone(key: string, item: ResponseOutputMessage): ModelEvent[] {
    const phase = (item as { phase?: string | null }).phase ?? undefined;
    return item.content.flatMap((content, contentIndex) => {
      if (content.type !== 'output_text') return [];
      const citations = citationsOf(content.annotations);
      if (citations.length === 0 && !phase) return [];
      return this.draft.setPart('text', `${key}:${contentIndex}`, {
        type: 'text',
        text: content.text,
        ...(citations.length > 0 && { citations }),
        ...(phase && { phase }),
      });
    });
  }

  /**
   * Each thinking part of a reasoning item gets the item's id and encrypted content, so the
   * converter can send the item back whole (and a reasoning model keeps its chain of thought
   * across tool calls without server storage). An item with no visible text still gets a part.
   */
  private reasoningDone(key: string, item: ResponseReasoningItem): ModelEvent[] {
    const meta = { id: item.id, ...(item.encrypted_content && { encrypted: item.encrypted_content }) };
    const texts = [
      ...item.summary.map((summary, i) => [`${key}:summary:${i}`, summary.text] as const),
      ...(item.content ?? []).map((content, i) => [`${key}:text:${i}`, content.text] as const),
    ];
    if (texts.length === 0) texts.push([`${key}:summary:0`, '']);
    return texts.flatMap(([partKey, text]) =>
      this.draft.setPart('thinking', partKey, { type: 'thinking', text, ...meta }),
    );
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
