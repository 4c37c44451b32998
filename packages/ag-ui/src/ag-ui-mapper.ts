import { EventType, type BaseEvent } from '@ag-ui/core';
import {
  initialAgentState,
  reduceAgentState,
  type AgentEvent,
  type AgentState,
  type AssistantMessage,
} from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { createWireEncoder } from '@rxagent/core/streams';
import { statePatch } from './state-patch.js';

/** What an AG-UI event of the mapping may carry besides its type. */
type Fields = Record<string, unknown>;

const event = (type: EventType, fields: Fields = {}): BaseEvent => ({ type, ...fields });

function resultText(end: ToolEndEvent): string {
  return end.result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');
}

/**
 * The mapping of one rxagent run's events to AG-UI events, kept for the whole run (a run paused
 * at an approval goes on in the next AG-UI run of the thread). Each assistant message is a text
 * message (its text deltas streamed), its thinking a reasoning message, its tool calls
 * `TOOL_CALL_START` / `ARGS` / `END` when the message is complete, and each `tool-end` a
 * `TOOL_CALL_RESULT` with the typed outcome in `metadata.rxagent.outcome`. Model calls are
 * steps. The state (`view` of the folded state, `reduceAgentState`) changes by `STATE_DELTA`
 * (JSON Patch). rxagent's other events are `CUSTOM` events named `rxagent:<type>`, in the wire
 * form (a sub-run's message updates as deltas).
 */
export class AGUIEventMapper {
  private state: AgentState = initialAgentState();
  private sent: unknown;
  private readonly encoder = createWireEncoder();
  private messages = 0;
  private messageId: string | undefined;
  private text: string | undefined;
  private reasoning: string | undefined;
  private step: string | undefined;
  /** The step an interrupt or a stop cut off: opened again when the run goes on. */
  private cutStep: string | undefined;

  constructor(
    private readonly view: (state: AgentState) => unknown,
    private readonly prefix: string,
  ) {
    this.sent = view(this.state);
  }

  /** The state as the next `STATE_SNAPSHOT` carries it. */
  snapshot(): BaseEvent {
    this.sent = this.view(this.state);
    return event(EventType.STATE_SNAPSHOT, { snapshot: this.sent });
  }

  /** The folded state of the run so far. */
  get current(): AgentState {
    return this.state;
  }

  map(e: AgentEvent): BaseEvent[] {
    this.state = reduceAgentState(this.state, e);
    const out = this.events(e);
    if (e.type !== 'message-update') {
      const after = this.view(this.state);
      const delta = statePatch(this.sent, after);
      this.sent = after;
      if (delta.length > 0) out.push(event(EventType.STATE_DELTA, { delta }));
    }
    return out;
  }

  /**
   * Ends what is open — reasoning, text, the step — when an AG-UI run ends mid-step (at an
   * interrupt, or the run stopped): AG-UI runs close what they open.
   */
  close(): BaseEvent[] {
    const out = [...this.endReasoning(), ...this.endText()];
    if (this.step !== undefined) {
      out.push(event(EventType.STEP_FINISHED, { stepName: this.step }));
      this.cutStep = this.step;
      this.step = undefined;
    }
    return out;
  }

  /** Opens again the step an interrupt cut off (the next AG-UI run goes on with it). */
  reopen(): BaseEvent[] {
    if (this.cutStep === undefined) return [];
    this.step = this.cutStep;
    this.cutStep = undefined;
    return [event(EventType.STEP_STARTED, { stepName: this.step })];
  }

  private events(e: AgentEvent): BaseEvent[] {
    switch (e.type) {
      case 'agent-start':
      case 'approval-request':
      case 'agent-end':
        return []; // the run's start and end, and its interrupts, are the AG-UI run's
      case 'turn-start':
        this.step = `step-${e.step}`;
        this.cutStep = undefined;
        return [event(EventType.STEP_STARTED, { stepName: this.step })];
      case 'turn-end': {
        const stepName = this.step ?? `step-${e.step.step}`;
        this.step = undefined;
        return [event(EventType.STEP_FINISHED, { stepName })];
      }
      case 'message-start':
        if (e.message.role === 'assistant') this.messageId = `${this.prefix}-m${++this.messages}`;
        return [];
      case 'message-update':
        return this.delta(e.delta.kind, e.delta.text);
      case 'message-end':
        return e.message.role === 'assistant' ? this.messageEnd(e.message) : [];
      case 'tool-end':
        return [
          event(EventType.TOOL_CALL_RESULT, {
            messageId: `${e.toolCallId}-result`,
            toolCallId: e.toolCallId,
            role: 'tool',
            content: resultText(e),
            metadata: { rxagent: { outcome: e.outcome, isError: e.isError } },
          }),
        ];
      case 'retry':
        // The partial message is dropped: what was streamed of it ends here; the next attempt is a new message.
        return [...this.close(), this.custom(e)];
      default:
        return e.type === 'tool-start' ? [] : [this.custom(e)];
    }
  }

  private custom(e: AgentEvent): BaseEvent {
    const { seq: _seq, ...wire } = this.encoder.encode(e);
    return event(EventType.CUSTOM, { name: `rxagent:${e.type}`, value: wire });
  }

  private currentId(): string {
    this.messageId ??= `${this.prefix}-m${++this.messages}`;
    return this.messageId;
  }

  private delta(kind: string, delta: string): BaseEvent[] {
    if (delta === '') return [];
    if (kind === 'thinking') {
      const out: BaseEvent[] = this.endText();
      if (this.reasoning === undefined) {
        this.reasoning = `${this.currentId()}-r`;
        out.push(
          event(EventType.REASONING_START, { messageId: this.reasoning }),
          event(EventType.REASONING_MESSAGE_START, { messageId: this.reasoning, role: 'reasoning' }),
        );
      }
      out.push(event(EventType.REASONING_MESSAGE_CONTENT, { messageId: this.reasoning, delta }));
      return out;
    }
    if (kind !== 'text') return [];
    const out = this.endReasoning();
    if (this.text === undefined) {
      this.text = this.currentId();
      out.push(event(EventType.TEXT_MESSAGE_START, { messageId: this.text, role: 'assistant' }));
    }
    out.push(event(EventType.TEXT_MESSAGE_CONTENT, { messageId: this.text, delta }));
    return out;
  }

  private endText(): BaseEvent[] {
    if (this.text === undefined) return [];
    const id = this.text;
    this.text = undefined;
    return [event(EventType.TEXT_MESSAGE_END, { messageId: id })];
  }

  private endReasoning(): BaseEvent[] {
    if (this.reasoning === undefined) return [];
    const id = this.reasoning;
    this.reasoning = undefined;
    return [
      event(EventType.REASONING_MESSAGE_END, { messageId: id }),
      event(EventType.REASONING_END, { messageId: id }),
    ];
  }

  private messageEnd(message: AssistantMessage): BaseEvent[] {
    const out = [...this.endReasoning(), ...this.endText()];
    const parentMessageId = this.currentId();
    for (const part of message.content) {
      if (part.type !== 'tool-call') continue;
      const args = part.argsText ?? JSON.stringify(part.args ?? {});
      out.push(
        event(EventType.TOOL_CALL_START, { toolCallId: part.id, toolCallName: part.name, parentMessageId }),
      );
      if (args !== '') out.push(event(EventType.TOOL_CALL_ARGS, { toolCallId: part.id, delta: args }));
      out.push(event(EventType.TOOL_CALL_END, { toolCallId: part.id }));
    }
    this.messageId = undefined;
    return out;
  }
}
