import type { AgentEvent, ToolEndEvent } from '../../events/agent-event.js';
import type { FinishReason } from '../../messages/types.js';
import { serializeError } from '../../errors/serialize-error.js';
import { createWireEncoder } from '../wire/wire-encoder.js';
import type { UIMessageChunk } from './ui-message-chunk.js';

type Finish = NonNullable<Extract<UIMessageChunk, { type: 'finish' }>['finishReason']>;

/** Events with no UI message part of their own, sent as data parts that stay in the message. */
const KEPT = new Set(['warning', 'compaction', 'guardrail-end', 'elicitation-request', 'elicitation-end']);
/** Events sent as transient data parts (to `onData`, not kept in the message). */
const TRANSIENT = new Set([
  'subrun',
  'tool-update',
  'retry',
  'context-usage',
  'output-update',
  'summary-start',
  'summary-update',
  'guardrail-start',
]);

function finishReason(reason: FinishReason | undefined): Finish {
  return reason === 'stop' ||
    reason === 'length' ||
    reason === 'content-filter' ||
    reason === 'tool-calls' ||
    reason === 'error'
    ? reason
    : 'other';
}

function resultText(event: ToolEndEvent): string {
  return event.result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');
}

/**
 * The stateful mapping of one run's events to UI message chunks: the whole run is one
 * assistant UI message (`start` … `finish`), each model call a step. Text and reasoning stream
 * as deltas; tool calls appear with their input when the model's message is complete, their
 * output (or error, or denial) when they end, with the typed outcome in `toolMetadata` and a
 * `data-rxagent-tool-outcome` part; approvals are the SDK's approval chunks; a retried model
 * call resets its step; rxagent's own events are `data-rxagent-<type>` parts, in the wire form
 * (deltas, not snapshots).
 */
export class UIMessageMapper {
  private readonly open = new Map<string, 'text' | 'reasoning'>();
  /** The tool calls the reader has a part for (the SDK's reader fails on any other id). */
  private readonly calls = new Set<string>();
  private readonly encoder = createWireEncoder();
  private lastReason: FinishReason | undefined;
  private step = 0;

  constructor(private readonly messageId?: string) {}

  map(event: AgentEvent): UIMessageChunk[] {
    switch (event.type) {
      case 'agent-start':
        return [{ type: 'start', messageId: this.messageId ?? event.runId }];
      case 'turn-start':
        this.step = event.step;
        return [{ type: 'start-step' }];
      case 'message-update':
        return this.delta(event.delta.kind, event.delta.index, event.delta.text);
      case 'message-end':
        return event.message.role === 'assistant' ? this.messageEnd(event.message) : [];
      case 'approval-request':
        if (!this.calls.has(event.toolCallId)) return [this.data(event, false)];
        return [
          { type: 'tool-approval-request', approvalId: event.toolCallId, toolCallId: event.toolCallId },
        ];
      case 'approval-end':
        if (!this.calls.has(event.toolCallId)) return [this.data(event, false)];
        return [
          {
            type: 'tool-approval-response',
            approvalId: event.toolCallId,
            approved: event.approved,
            ...(event.reason !== undefined ? { reason: event.reason } : {}),
          },
        ];
      case 'tool-end':
        return this.calls.has(event.toolCallId) ? this.toolEnd(event) : [this.data(event, false)];
      case 'turn-end':
        return [
          { type: 'finish-step' },
          {
            type: 'data-rxagent-step',
            id: `step-${event.step.step}`,
            data: { step: event.step.step, usage: event.step.usage, finishReason: event.step.finishReason },
          },
        ];
      case 'retry':
        this.open.clear();
        return [{ type: 'reset-step' }, this.data(event, true)];
      case 'agent-end':
        return [
          ...this.closeOpen(),
          {
            type: 'finish',
            finishReason: finishReason(this.lastReason),
            messageMetadata: { rxagent: { reason: event.reason, usage: event.usage, steps: event.steps } },
          },
        ];
      default:
        if (KEPT.has(event.type)) return [this.data(event, false)];
        if (TRANSIENT.has(event.type)) return [this.data(event, true)];
        return [];
    }
  }

  /** The chunk for a run that failed: the error's name and message (never a body or stack). */
  error(error: unknown): UIMessageChunk[] {
    const { name, message } = serializeError(error);
    return [...this.closeOpen(), { type: 'error', errorText: `${name}: ${message}` }];
  }

  private delta(kind: string, index: number, text: string): UIMessageChunk[] {
    if (kind !== 'text' && kind !== 'thinking') return [];
    const part = kind === 'text' ? 'text' : 'reasoning';
    const id = `${this.step}-${part}-${index}`;
    const chunks: UIMessageChunk[] = [];
    if (!this.open.has(id)) {
      this.open.set(id, part);
      chunks.push(part === 'text' ? { type: 'text-start', id } : { type: 'reasoning-start', id });
    }
    if (text !== '')
      chunks.push(
        part === 'text'
          ? { type: 'text-delta', id, delta: text }
          : { type: 'reasoning-delta', id, delta: text },
      );
    return chunks;
  }

  private closeOpen(): UIMessageChunk[] {
    const chunks: UIMessageChunk[] = [];
    for (const [id, part] of this.open)
      chunks.push(part === 'text' ? { type: 'text-end', id } : { type: 'reasoning-end', id });
    this.open.clear();
    return chunks;
  }

  private messageEnd(
    message: Extract<AgentEvent, { type: 'message-end' }>['message'] & { role: 'assistant' },
  ): UIMessageChunk[] {
    this.lastReason = message.stopReason;
    const chunks = this.closeOpen();
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      this.calls.add(part.id);
      chunks.push(
        part.argsError === undefined
          ? { type: 'tool-input-available', toolCallId: part.id, toolName: part.name, input: part.args }
          : {
              type: 'tool-input-error',
              toolCallId: part.id,
              toolName: part.name,
              input: part.argsText ?? part.args,
              errorText: part.argsError,
            },
      );
    }
    return chunks;
  }

  private toolEnd(event: ToolEndEvent): UIMessageChunk[] {
    const toolMetadata = { outcome: event.outcome };
    const outcome: UIMessageChunk = {
      type: 'data-rxagent-tool-outcome',
      id: event.toolCallId,
      data: { toolCallId: event.toolCallId, toolName: event.toolName, outcome: event.outcome },
    };
    if (event.outcome === 'denied' || event.outcome === 'rejected') {
      return [{ type: 'tool-output-denied', toolCallId: event.toolCallId }, outcome];
    }
    if (event.isError || event.outcome !== 'executed') {
      return [
        {
          type: 'tool-output-error',
          toolCallId: event.toolCallId,
          errorText: resultText(event),
          toolMetadata,
        },
        outcome,
      ];
    }
    const text = event.result.content.every((p) => p.type === 'text');
    const output = text ? resultText(event) : event.result.content;
    return [{ type: 'tool-output-available', toolCallId: event.toolCallId, output, toolMetadata }, outcome];
  }

  private data(event: AgentEvent, transient: boolean): UIMessageChunk {
    const { seq: _seq, ...wire } = this.encoder.encode(event);
    return transient
      ? { type: `data-rxagent-${event.type}`, data: wire, transient: true }
      : { type: `data-rxagent-${event.type}`, data: wire };
  }
}
