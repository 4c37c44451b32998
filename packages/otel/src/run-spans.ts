import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import {
  initialAgentState,
  reduceAgentState,
  type AgentEvent,
  type AgentMessage,
  type AgentState,
} from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import { ChatSpan } from './chat-span.js';
import { boundedJson, boundedText, finishReason, systemInstructions } from './content.js';
import { GuardrailSpans } from './guardrail-spans.js';
import { providerName, requestAttributes, usageAttributes } from './request-attributes.js';
import type { RunSpansEnv } from './run-spans-env.js';
import { GEN_AI, OPERATION, RXAGENT } from './semconv.js';
import { hrTime } from './span-time.js';
import { ToolSpans } from './tool-spans.js';

const CANCELLED = 'cancelled';

/**
 * The spans of one run, driven by its events: `invoke_agent` for the run, `chat` per model
 * call (child of the run), `execute_tool` per tool call (child of the model call that asked
 * for it), `guardrail` per guardrail check. Every time comes from the run's scheduler. The run's
 * totals (usage, finish reason) come from the core's state fold (`reduceAgentState`) over the
 * same events, so they agree with `withState` and the `Agent`.
 */
export class RunSpans {
  private run?: Span;
  private runContext?: Context;
  private runId = '';
  private chat?: ChatSpan;
  /** The context of the last model call: tool spans of its step are its children. */
  private chatContext?: Context;
  private readonly tools: ToolSpans;
  private readonly guardrails: GuardrailSpans;
  private state: AgentState = initialAgentState();
  private step = 0;
  private lastFinish?: string;
  private pendingKind: 'steering' | 'follow-up' | undefined;
  private ended = false;

  constructor(private readonly env: RunSpansEnv) {
    this.tools = new ToolSpans(env, () => this.runId);
    this.guardrails = new GuardrailSpans(env);
  }

  see(event: AgentEvent): void {
    if (this.ended) return;
    const now = this.env.now();
    const before = this.state;
    this.state = reduceAgentState(this.state, event);
    switch (event.type) {
      case 'agent-start':
        if (!this.run) this.runId = event.runId;
        this.ensureRun(now);
        return;
      case 'turn-start':
        return this.turnStart(event.step, now);
      case 'message-start':
        if (event.message.role === 'assistant') this.chatFor(now).sent(before.messages);
        return;
      case 'message-update':
        return this.chat?.chunk(now);
      case 'message-end':
        return this.messageEnd(event.message, now);
      case 'tool-start':
        this.ensureRun(now);
        return this.tools.start(
          event.toolCallId,
          event.toolName,
          event.args,
          this.step,
          this.chatContext ?? this.runContext ?? this.env.parent,
          now,
        );
      case 'approval-request':
        return this.tools.approvalRequested(event.toolCallId, now);
      case 'approval-end':
        return this.tools.approvalEnded(event.toolCallId, event.approved, event.reason, now);
      case 'tool-end':
        return this.tools.end(event.toolCallId, event.result, event.isError, now);
      case 'guardrail-start': {
        const tool = event.toolCallId ? this.tools.span(event.toolCallId) : undefined;
        const parent = tool ? trace.setSpan(this.env.parent, tool) : (this.runContext ?? this.env.parent);
        this.ensureRun(now);
        return this.guardrails.start(event, parent, now);
      }
      case 'guardrail-end':
        return this.guardrails.end(event, now);
      case 'retry':
        return this.chatFor(now).retry(
          {
            'rxagent.retry.attempt': event.attempt,
            'rxagent.retry.delay_ms': event.delayMs,
            [GEN_AI.ERROR_TYPE]: event.error.name,
            'rxagent.retry.error_message': boundedText(event.error.message, this.env.maxContentLength),
          },
          now,
        );
      case 'compaction':
        this.chatFor(now).span.addEvent(
          RXAGENT.EVENT_COMPACTION,
          {
            'rxagent.compaction.strategy': event.strategy,
            'rxagent.compaction.tokens_before': event.tokensBefore,
            'rxagent.compaction.tokens_after': event.tokensAfter,
            'rxagent.compaction.summarized': event.summarized,
          },
          hrTime(now),
        );
        return;
      case 'warning':
        this.run?.addEvent(
          RXAGENT.EVENT_WARNING,
          { 'rxagent.warning.message': boundedText(event.message, this.env.maxContentLength) },
          hrTime(now),
        );
        return;
      case 'agent-end':
        return this.agentEnd(event, now);
      default:
        return;
    }
  }

  /** The run failed: every open span ends, the failing ones with the error's class and message. */
  fail(error: unknown): void {
    if (this.ended) return;
    const now = this.env.now();
    const name = error instanceof Error ? error.name : 'Error';
    const message = `${name}: ${boundedText(error instanceof Error ? error.message : String(error), 1024)}`;
    this.tools.closeAll('The run failed before the tool call ended.', now, name);
    this.chat?.fail(name, message, now);
    this.chat = undefined;
    const run = this.ensureRun(now);
    run.setAttribute(GEN_AI.ERROR_TYPE, name);
    run.setStatus({ code: SpanStatusCode.ERROR, message });
    run.addEvent(
      'exception',
      { 'exception.type': name, 'exception.message': message.slice(name.length + 2) },
      hrTime(now),
    );
    this.finish(now);
  }

  /**
   * The subscription ended. After `agent-end` or a failure there is nothing left; otherwise the
   * run was cancelled (unsubscribed): the spans still open end as cancelled, with the totals
   * the run had reached.
   */
  close(): void {
    if (this.ended) return;
    const now = this.env.now();
    const why = 'The run was cancelled.';
    this.tools.closeAll('The run was cancelled before the tool call ended.', now, CANCELLED);
    this.chat?.span.addEvent(RXAGENT.EVENT_CANCELLED, {}, hrTime(now));
    this.chat?.fail(CANCELLED, why, now);
    this.chat = undefined;
    if (this.run) {
      this.run.addEvent(RXAGENT.EVENT_CANCELLED, {}, hrTime(now));
      this.run.setAttribute(GEN_AI.ERROR_TYPE, CANCELLED);
      this.run.setStatus({ code: SpanStatusCode.ERROR, message: why });
    }
    this.finish(now);
  }

  private ensureRun(now: number): Span {
    if (this.run) return this.run;
    const { env } = this;
    const attributes: Attributes = {
      [GEN_AI.OPERATION_NAME]: OPERATION.INVOKE_AGENT,
      ...requestAttributes(env.request),
    };
    if (this.runId) attributes[RXAGENT.RUN_ID] = this.runId;
    if (env.agentName) attributes[GEN_AI.AGENT_NAME] = env.agentName;
    if (env.provider) attributes[GEN_AI.PROVIDER_NAME] = providerName(env.provider);
    if (env.modelId) attributes[GEN_AI.REQUEST_MODEL] = env.modelId;
    if (env.conversationId) attributes[GEN_AI.CONVERSATION_ID] = env.conversationId;
    if (env.captureContent && env.request?.system !== undefined) {
      attributes[GEN_AI.SYSTEM_INSTRUCTIONS] = boundedJson(
        systemInstructions(env.request.system),
        env.maxContentLength,
      );
    }
    const name = env.agentName ? `${OPERATION.INVOKE_AGENT} ${env.agentName}` : OPERATION.INVOKE_AGENT;
    this.run = env.tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes, startTime: hrTime(now) },
      env.parent,
    );
    this.runContext = trace.setSpan(env.parent, this.run);
    return this.run;
  }

  private turnStart(step: number, now: number): void {
    const previous = this.lastFinish;
    this.step = step;
    // User messages opening a later turn: steering after tool calls, follow-ups after an answer.
    this.pendingKind = step > 1 ? (previous === 'tool-calls' ? 'steering' : 'follow-up') : undefined;
    this.chatFor(now);
  }

  /** The open model-call span of this step, started when first needed. */
  private chatFor(now: number): ChatSpan {
    if (this.chat) return this.chat;
    const run = this.ensureRun(now);
    this.chat = new ChatSpan(
      this.env,
      this.runContext ?? trace.setSpan(this.env.parent, run),
      this.step,
      now,
    );
    return this.chat;
  }

  private messageEnd(message: AgentMessage, now: number): void {
    if (message.role !== 'assistant') {
      if (message.role === 'user' && this.pendingKind) {
        const name = this.pendingKind === 'steering' ? RXAGENT.EVENT_STEERING : RXAGENT.EVENT_FOLLOW_UP;
        this.run?.addEvent(name, { [RXAGENT.STEP]: this.step }, hrTime(now));
      }
      return;
    }
    const chat = this.chatFor(now);
    chat.end(message, now);
    this.lastFinish = message.stopReason;
    this.chatContext = chat.context(this.runContext ?? this.env.parent);
    this.chat = undefined;
    // Learnt from the answer when the run did not say (operator form).
    if (!this.env.provider && this.run) {
      this.run.setAttribute(GEN_AI.PROVIDER_NAME, providerName(message.provider));
      this.run.setAttribute(GEN_AI.REQUEST_MODEL, message.model);
    }
  }

  private agentEnd(event: AgentEndEvent, now: number): void {
    this.tools.closeAll('The run ended before the tool call ended.', now);
    const run = this.ensureRun(now);
    run.setAttributes({ [RXAGENT.STOP_REASON]: event.reason, [RXAGENT.STEPS]: event.steps });
    const stop: Attributes = {
      [RXAGENT.STOP_REASON]: event.reason,
      'rxagent.stop.message': boundedText(event.signal.message, this.env.maxContentLength),
    };
    if (event.signal.source) stop['rxagent.stop.source'] = event.signal.source;
    run.addEvent(RXAGENT.EVENT_STOP, stop, hrTime(now));
    // A model call cut short (a guardrail tripped while it streamed) did not complete.
    this.chat?.fail(CANCELLED, `The model call was cut short: the run stopped (${event.reason}).`, now);
    this.chat = undefined;
    this.finish(now);
  }

  /** The run span's totals from the state fold, then it ends. */
  private finish(now: number): void {
    this.ended = true;
    this.guardrails.closeAll(now);
    const run = this.run;
    if (!run) return;
    run.setAttributes(usageAttributes(this.state.usage));
    if (this.lastFinish !== undefined)
      run.setAttribute(GEN_AI.RESPONSE_FINISH_REASONS, [finishReason(this.lastFinish)]);
    run.end(hrTime(now));
  }
}
