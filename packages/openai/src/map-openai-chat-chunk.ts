import type { AssistantMessage, ModelEvent, Usage } from '@rxagent/core';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { AssistantDraft } from './assistant-draft.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import { mapOpenAIChatUsage } from './map-openai-usage.js';
import type { ChunkMapper } from './openai-event-stream.js';

type ToolCallFragment = NonNullable<ChatCompletionChunk.Choice.Delta['tool_calls']>[number];

/**
 * The custom (free-form) tool part of a fragment: `{ type: 'custom', custom: { name, input } }`
 * (the SDK's chunk type only knows functions). A bare `custom: {}` that some gateways echo on
 * function fragments is not one.
 */
function customFragment(fragment: ToolCallFragment): { name?: string; input?: string } | undefined {
  const { type, custom } = fragment as { type?: unknown; custom?: unknown };
  if (typeof custom !== 'object' || custom === null) return undefined;
  const { name, input } = custom as { name?: unknown; input?: unknown };
  if (type !== 'custom' && typeof name !== 'string' && typeof input !== 'string') return undefined;
  return {
    ...(typeof name === 'string' && { name }),
    ...(typeof input === 'string' && { input }),
  };
}

/** Reasoning fields some OpenAI-compatible servers (vLLM, Ollama, DeepSeek) add to the delta. */
interface CompatDelta {
  reasoning_content?: unknown;
  reasoning?: unknown;
}

/** Fields some OpenAI-compatible servers add to the chunk (Perplexity's sources). */
interface CompatChunk {
  citations?: unknown;
}

/**
 * Chat Completions chunks → `ModelEvent`s, for choice 0. Text, refusals (streamed as text,
 * ending with `content-filter`), compat reasoning fields (→ thinking) and tool-call fragments
 * keyed by their wire `index`, so interleaved parallel calls stay apart. It keeps reading after
 * `finish_reason` (the usage chunk comes later); `flush` closes the calls, parses their
 * arguments and emits `usage` and `finish`. Custom (free-form) tool calls (`type: 'custom'`,
 * `custom: { name, input }`) keep their raw input text as arguments. Compatible servers' variants are read too:
 * `delta.content` as an array of parts (Mistral's magistral: `thinking` and `text` parts) and
 * Perplexity-style `citations` (URLs, kept on the text part).
 *
 * @example
 * const mapper = new OpenAIChatChunkMapper('gpt-4o-mini', Date.now());
 * for await (const chunk of stream) events.push(...mapper.map(chunk));
 * if (mapper.terminated) events.push(...mapper.flush());
 */
export class OpenAIChatChunkMapper implements ChunkMapper<ChatCompletionChunk> {
  /** Chat streams are read to their end: the usage chunk follows the finish reason. */
  readonly done = false;
  private readonly draft: AssistantDraft;
  private readonly calls = new Map<number, { key: string; id: string | undefined }>();
  private callCount = 0;
  private finishReason: string | undefined;
  private refused = false;
  private usage: Usage | undefined;
  private model: string | undefined;
  private responseId: string | undefined;
  private citations: string[] = [];

  /**
   * @param textTools Free-form tools (string parameters), declared as `{ input }` functions:
   *   their calls' arguments are unwrapped back to the string.
   */
  constructor(modelId: string, timestamp: number, textTools: ReadonlySet<string> = new Set()) {
    this.draft = new AssistantDraft(modelId, timestamp, textTools);
  }

  get terminated(): boolean {
    return this.finishReason !== undefined;
  }

  map(chunk: ChatCompletionChunk): ModelEvent[] {
    if (chunk.usage) this.usage = mapOpenAIChatUsage(chunk.usage);
    this.model ??= chunk.model || undefined;
    this.responseId ??= chunk.id || undefined;
    const cited = (chunk as CompatChunk).citations;
    if (Array.isArray(cited)) this.citations = cited.filter((url): url is string => typeof url === 'string');
    const events: ModelEvent[] = [];
    for (const choice of chunk.choices ?? []) {
      if (choice.index !== 0 && choice.index !== undefined) continue;
      const delta = choice.delta ?? {};
      const compat = delta as CompatDelta;
      const reasoning = compat.reasoning_content ?? compat.reasoning;
      if (typeof reasoning === 'string') events.push(...this.draft.thinking('reasoning', reasoning));
      if (typeof delta.content === 'string') events.push(...this.draft.text('content', delta.content));
      if (Array.isArray(delta.content)) events.push(...this.contentParts(delta.content as unknown[]));
      if (typeof delta.refusal === 'string' && delta.refusal) {
        this.refused = true;
        events.push(...this.draft.text('refusal', delta.refusal));
      }
      for (const fragment of delta.tool_calls ?? []) events.push(...this.toolCall(fragment));
      if (choice.finish_reason) this.finishReason = choice.finish_reason;
    }
    return events;
  }

  flush(): ModelEvent[] {
    const text = this.draft.textOf('content');
    const citations =
      text !== undefined && this.citations.length > 0
        ? this.draft.setPart('text', 'content', {
            type: 'text',
            text,
            citations: this.citations.map((url) => ({ kind: 'url' as const, url, raw: url })),
          })
        : [];
    return [
      ...citations,
      ...this.draft.finish({
        reason: this.refused ? 'content-filter' : mapOpenAIFinishReason(this.finishReason),
        ...(this.usage && { usage: this.usage }),
        ...(this.model && { model: this.model }),
        ...(this.responseId && { responseId: this.responseId }),
      }),
    ];
  }

  /** Mistral-style content parts: `{ type: 'text', text }` and `{ type: 'thinking', thinking: [{ type: 'text', text }] }`. */
  private contentParts(parts: unknown[]): ModelEvent[] {
    const events: ModelEvent[] = [];
    for (const part of parts) {
      if (typeof part !== 'object' || part === null) continue;
      const { type, text, thinking } = part as { type?: unknown; text?: unknown; thinking?: unknown };
      if (type === 'text' && typeof text === 'string') events.push(...this.draft.text('content', text));
      if (type === 'thinking') {
        const pieces = Array.isArray(thinking) ? thinking : [{ text: thinking }];
        for (const piece of pieces as { text?: unknown }[]) {
          if (typeof piece?.text === 'string') events.push(...this.draft.thinking('reasoning', piece.text));
        }
      }
    }
    return events;
  }

  partial(why: string): AssistantMessage {
    return this.draft.partial(why);
  }

  private toolCall(fragment: ToolCallFragment): ModelEvent[] {
    const wireIndex = typeof fragment.index === 'number' ? fragment.index : 0;
    let entry = this.calls.get(wireIndex);
    // Some compatible servers reuse index 0 for every call: a new id means a new call.
    if (!entry || (fragment.id && entry.id && fragment.id !== entry.id)) {
      entry = { key: String(this.callCount++), id: fragment.id };
      this.calls.set(wireIndex, entry);
    }
    entry.id ??= fragment.id;
    const custom = customFragment(fragment);
    const events = this.draft.startCall(
      entry.key,
      fragment.id,
      custom ? custom.name : fragment.function?.name,
    );
    if (custom) this.draft.markCustom(entry.key);
    return [
      ...events,
      ...this.draft.callDelta(entry.key, (custom ? custom.input : fragment.function?.arguments) ?? ''),
    ];
  }
}
