import {
  context as otelContext,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type HrTime,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import type { AgentEvent, AgentMessage, AssistantMessage, Usage } from '@rxagent/core';
import { boundedText, conventionMessages, finishReason } from './content.js';
import { GEN_AI, OPERATION, RXAGENT } from './semconv.js';

/** What the spans of one run need to know besides its events. */
export interface RunSpansEnv {
  tracer: Tracer;
  parent: Context;
  now(): number;
  captureContent: boolean;
  maxContentLength: number;
  agentName?: string;
  conversationId?: string;
  /** Known when the run was given as an instrument; else read from the assistant messages. */
  provider?: string;
  modelId?: string;
  /** Where tool spans are kept while their tool runs (see `RunTracer.toolScope`). */
  tools: Map<string, Span>;
}

/** Epoch milliseconds (from the run's scheduler) as an OpenTelemetry `HrTime`. */
export function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  const seconds = Math.floor(whole / 1000);
  const nanos = (whole - seconds * 1000) * 1e6 + Math.round((ms - whole) * 1e6);
  return [seconds, nanos];
}

/** The key of a tool span in `RunSpansEnv.tools`. */
export const toolKey = (runId: string, toolCallId: string): string => `${runId}\u0000${toolCallId}`;

interface ChatSpan {
  span: Span;
  startedAt: number;
  firstChunk: boolean;
}

interface ToolSpan {
  span: Span;
  approvalAt?: number;
}

/**
 * The spans of one run, driven by its events: `invoke_agent` for the run, `chat` per model
 * call (child of the run), `execute_tool` per tool call (child of the model call that asked
 * for it). Every time comes from the run's scheduler.
 */
export class RunSpans {
  private run?: Span;
  private runContext?: Context;
  private runId = '';
  private chat?: ChatSpan;
  /** The context of the last model call: tool spans of its step are its children. */
  private chatContext?: Context;
  private readonly tools = new Map<string, ToolSpan>();
  private step = 0;
  private lastFinish?: string;
  /** Messages entered since the last model call (captured as its input). */
  private pending: AgentMessage[] = [];
  private ended = false;

  constructor(private readonly env: RunSpansEnv) {}

  see(event: AgentEvent): void {
    if (this.ended) return;
    const now = this.env.now();
    switch (event.type) {
      case 'agent-start':
        return this.start(event.runId, now);
      case 'turn-start':
        return this.turnStart(event.step, now);
      case 'message-start':
        if (event.message.role === 'assistant') this.chatFor(now);
        return;
      case 'message-update':
        return this.firstChunk(now);
      case 'message-end':
        return this.messageEnd(event.message, now);
      case 'tool-start':
        return this.toolStart(event.toolCallId, event.toolName, event.args, now);
      case 'approval-request': {
        const tool = this.tools.get(event.toolCallId);
        if (!tool) return;
        tool.approvalAt = now;
        tool.span.addEvent(RXAGENT.EVENT_APPROVAL_REQUEST, {}, hrTime(now));
        return;
      }
      case 'approval-end': {
        const tool = this.tools.get(event.toolCallId);
        if (!tool) return;
        const attributes: Attributes = {
          'rxagent.approval.approved': event.approved,
          'rxagent.approval.wait_ms': tool.approvalAt === undefined ? 0 : now - tool.approvalAt,
        };
        if (event.reason !== undefined)
          attributes['rxagent.approval.reason'] = boundedText(event.reason, this.env.maxContentLength);
        tool.span.addEvent(RXAGENT.EVENT_APPROVAL_END, attributes, hrTime(now));
        return;
      }
      case 'tool-end':
        return this.toolEnd(event.toolCallId, event.result, event.isError, now);
      case 'retry': {
        const span = this.chatFor(now);
        span.addEvent(
          RXAGENT.EVENT_RETRY,
          {
            'rxagent.retry.attempt': event.attempt,
            'rxagent.retry.delay_ms': event.delayMs,
            [GEN_AI.ERROR_TYPE]: event.error.name,
            'rxagent.retry.error_message': boundedText(event.error.message, this.env.maxContentLength),
          },
          hrTime(now),
        );
        // The streamed part of the failed attempt is discarded: the next chunk is a first one again.
        if (this.chat) this.chat.firstChunk = false;
        return;
      }
      case 'compaction':
        this.chatFor(now).addEvent(
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
      case 'tool-update':
        return;
    }
  }

  /** The run failed: every open span ends, the failing ones with the error's class and message. */
  fail(error: unknown): void {
    if (this.ended) return;
    const now = this.env.now();
    const name = error instanceof Error ? error.name : 'Error';
    const message = boundedText(error instanceof Error ? error.message : String(error), 1024);
    const status = { code: SpanStatusCode.ERROR, message: `${name}: ${message}` };
    this.closeTools(now, 'The run failed before the tool call ended.');
    if (this.chat) {
      this.chat.span.setAttribute(GEN_AI.ERROR_TYPE, name);
      this.chat.span.setStatus(status);
      this.chat.span.end(hrTime(now));
      this.chat = undefined;
    }
    const run = this.ensureRun(now);
    run.setAttribute(GEN_AI.ERROR_TYPE, name);
    run.setStatus(status);
    run.addEvent('exception', { 'exception.type': name, 'exception.message': message }, hrTime(now));
    this.finish(now);
  }

  /** The run completed (after `agent-end`), or was unsubscribed (spans still open are cancelled). */
  close(): void {
    if (this.ended) return;
    const now = this.env.now();
    this.closeTools(now, 'The run was cancelled before the tool call ended.');
    if (this.chat) {
      this.chat.span.addEvent(RXAGENT.EVENT_CANCELLED, {}, hrTime(now));
      this.chat.span.end(hrTime(now));
      this.chat = undefined;
    }
    this.run?.addEvent(RXAGENT.EVENT_CANCELLED, {}, hrTime(now));
    this.finish(now);
  }

  private start(runId: string, now: number): void {
    if (this.run) return;
    this.runId = runId;
    this.ensureRun(now);
  }

  private ensureRun(now: number): Span {
    if (this.run) return this.run;
    const { env } = this;
    const attributes: Attributes = { [GEN_AI.OPERATION_NAME]: OPERATION.INVOKE_AGENT };
    if (this.runId) attributes[RXAGENT.RUN_ID] = this.runId;
    if (env.agentName) attributes[GEN_AI.AGENT_NAME] = env.agentName;
    if (env.provider) attributes[GEN_AI.PROVIDER_NAME] = env.provider;
    if (env.modelId) attributes[GEN_AI.REQUEST_MODEL] = env.modelId;
    this.common(attributes);
    const name = env.agentName ? `${OPERATION.INVOKE_AGENT} ${env.agentName}` : OPERATION.INVOKE_AGENT;
    this.run = env.tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes, startTime: hrTime(now) },
      env.parent,
    );
    this.runContext = trace.setSpan(env.parent, this.run);
    return this.run;
  }

  private common(attributes: Attributes): void {
    if (this.env.conversationId) attributes[GEN_AI.CONVERSATION_ID] = this.env.conversationId;
  }

  private turnStart(step: number, now: number): void {
    const previous = this.lastFinish;
    this.step = step;
    // User messages opening a later turn: steering after tool calls, follow-ups after an answer.
    this.pendingKind = step > 1 ? (previous === 'tool-calls' ? 'steering' : 'follow-up') : undefined;
    this.chatFor(now);
  }

  private pendingKind: 'steering' | 'follow-up' | undefined;

  /** The open model-call span of this step, started when first needed. */
  private chatFor(now: number): Span {
    if (this.chat) return this.chat.span;
    const run = this.ensureRun(now);
    const { env } = this;
    const model = env.modelId;
    const attributes: Attributes = {
      [GEN_AI.OPERATION_NAME]: OPERATION.CHAT,
      [RXAGENT.STEP]: this.step,
    };
    if (env.provider) attributes[GEN_AI.PROVIDER_NAME] = env.provider;
    if (model) attributes[GEN_AI.REQUEST_MODEL] = model;
    this.common(attributes);
    const span = env.tracer.startSpan(
      model ? `${OPERATION.CHAT} ${model}` : OPERATION.CHAT,
      { kind: SpanKind.CLIENT, attributes, startTime: hrTime(now) },
      this.runContext ?? trace.setSpan(env.parent, run),
    );
    this.chat = { span, startedAt: now, firstChunk: false };
    return span;
  }

  private firstChunk(now: number): void {
    const chat = this.chat;
    if (!chat || chat.firstChunk) return;
    chat.firstChunk = true;
    chat.span.setAttribute(GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK, (now - chat.startedAt) / 1000);
    chat.span.addEvent(RXAGENT.EVENT_FIRST_CHUNK, {}, hrTime(now));
  }

  private messageEnd(message: AgentMessage, now: number): void {
    if (message.role !== 'assistant') {
      if (message.role === 'user' && this.pendingKind) {
        const name = this.pendingKind === 'steering' ? RXAGENT.EVENT_STEERING : RXAGENT.EVENT_FOLLOW_UP;
        this.run?.addEvent(name, { [RXAGENT.STEP]: this.step }, hrTime(now));
      }
      if (this.env.captureContent) this.pending.push(message);
      return;
    }
    this.endChat(message, now);
  }

  private endChat(message: AssistantMessage, now: number): void {
    const span = this.chatFor(now);
    const { env } = this;
    const attributes: Attributes = {
      [GEN_AI.PROVIDER_NAME]: env.provider ?? message.provider,
      [GEN_AI.RESPONSE_MODEL]: message.model,
      [GEN_AI.RESPONSE_FINISH_REASONS]: [finishReason(message.stopReason)],
      ...usageAttributes(message.usage),
    };
    if (!env.modelId) {
      attributes[GEN_AI.REQUEST_MODEL] = message.model;
      span.updateName(`${OPERATION.CHAT} ${message.model}`);
    }
    if (env.captureContent) {
      attributes[GEN_AI.INPUT_MESSAGES] = boundedText(conventionMessages(this.pending), env.maxContentLength);
      attributes[GEN_AI.OUTPUT_MESSAGES] = boundedText(conventionMessages([message]), env.maxContentLength);
      this.pending = [];
    }
    span.setAttributes(attributes);
    if (message.stopReason === 'error')
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'The model call ended with an error.' });
    span.end(hrTime(now));
    this.lastFinish = message.stopReason;
    this.chatContext = trace.setSpan(this.runContext ?? env.parent, span);
    this.chat = undefined;
    // Learnt from the answer when the run did not say (operator form).
    if (!env.provider && this.run) {
      this.run.setAttribute(GEN_AI.PROVIDER_NAME, message.provider);
      this.run.setAttribute(GEN_AI.REQUEST_MODEL, message.model);
    }
  }

  private toolStart(toolCallId: string, toolName: string, args: unknown, now: number): void {
    this.ensureRun(now);
    const { env } = this;
    const attributes: Attributes = {
      [GEN_AI.OPERATION_NAME]: OPERATION.EXECUTE_TOOL,
      [GEN_AI.TOOL_NAME]: toolName,
      [GEN_AI.TOOL_CALL_ID]: toolCallId,
      [GEN_AI.TOOL_TYPE]: 'function',
      [RXAGENT.STEP]: this.step,
    };
    if (env.captureContent) attributes[GEN_AI.TOOL_CALL_ARGUMENTS] = boundedText(args, env.maxContentLength);
    this.common(attributes);
    const span = env.tracer.startSpan(
      `${OPERATION.EXECUTE_TOOL} ${toolName}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: hrTime(now) },
      this.chatContext ?? this.runContext ?? env.parent,
    );
    this.tools.set(toolCallId, { span });
    env.tools.set(toolKey(this.runId, toolCallId), span);
  }

  private toolEnd(
    toolCallId: string,
    result: { content: { type: string; text?: string }[] },
    isError: boolean,
    now: number,
  ): void {
    const tool = this.tools.get(toolCallId);
    if (!tool) return;
    const { span } = tool;
    const { env } = this;
    span.setAttribute(RXAGENT.TOOL_IS_ERROR, isError);
    const text = result.content.map((p) => (p.type === 'text' ? (p.text ?? '') : '[image]')).join('');
    if (env.captureContent)
      span.setAttribute(GEN_AI.TOOL_CALL_RESULT, boundedText(text, env.maxContentLength));
    if (isError) {
      span.setAttribute(GEN_AI.ERROR_TYPE, 'tool_error');
      // The result text is content (it may quote the arguments): only with captureContent.
      const message = env.captureContent
        ? boundedText(text, 1024)
        : 'The tool call ended with an error result.';
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.end(hrTime(now));
    this.tools.delete(toolCallId);
    env.tools.delete(toolKey(this.runId, toolCallId));
  }

  private agentEnd(event: Extract<AgentEvent, { type: 'agent-end' }>, now: number): void {
    this.closeTools(now, 'The run ended before the tool call ended.');
    const run = this.ensureRun(now);
    run.setAttributes({
      [RXAGENT.STOP_REASON]: event.reason,
      [RXAGENT.STEPS]: event.steps,
      ...usageAttributes(event.usage),
    });
    const stop: Attributes = {
      [RXAGENT.STOP_REASON]: event.reason,
      'rxagent.stop.message': boundedText(event.signal.message, this.env.maxContentLength),
    };
    if (event.signal.source) stop['rxagent.stop.source'] = event.signal.source;
    run.addEvent(RXAGENT.EVENT_STOP, stop, hrTime(now));
    if (this.chat) {
      this.chat.span.end(hrTime(now));
      this.chat = undefined;
    }
    this.finish(now);
  }

  private closeTools(now: number, why: string): void {
    for (const [id, tool] of this.tools) {
      tool.span.addEvent(RXAGENT.EVENT_CANCELLED, { 'rxagent.cancelled.reason': why }, hrTime(now));
      tool.span.end(hrTime(now));
      this.env.tools.delete(toolKey(this.runId, id));
    }
    this.tools.clear();
  }

  private finish(now: number): void {
    this.ended = true;
    this.run?.end(hrTime(now));
  }
}

function usageAttributes(usage: Usage): Attributes {
  const attributes: Attributes = {
    [GEN_AI.USAGE_INPUT_TOKENS]: usage.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: usage.outputTokens,
    [GEN_AI.USAGE_CACHE_READ_INPUT_TOKENS]: usage.cacheReadTokens,
    [GEN_AI.USAGE_CACHE_CREATION_INPUT_TOKENS]: usage.cacheWriteTokens,
  };
  if (usage.costUsd !== undefined) attributes[RXAGENT.COST_USD] = usage.costUsd;
  return attributes;
}

/** Calls `fn` with `span` active (for the work a tool starts). */
export function withSpan<T>(span: Span, fn: () => T): T {
  return otelContext.with(trace.setSpan(otelContext.active(), span), fn);
}
