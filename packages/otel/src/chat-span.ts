import {
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import type { AgentMessage, AssistantMessage } from '@rxagent/core';
import { boundedJson, boundedText, conventionMessages, finishReason, systemInstructions } from './content.js';
import { providerName, requestAttributes, usageAttributes } from './request-attributes.js';
import type { RunSpansEnv } from './run-spans-env.js';
import { GEN_AI, OPERATION, RXAGENT } from './semconv.js';
import { hrTime } from './span-time.js';

/**
 * The `chat` span of one model call (a step): started with the call, ended when its answer is
 * complete (one span for all its retries, with a `rxagent.retry` event each). Its attributes
 * follow the GenAI conventions: the request (`stream`, `max_tokens`, `temperature`, the output
 * type), the answer (`response.id`, `response.model`, finish reasons, time to first chunk) and
 * its usage; with content capture, the chat history given to the model, the system
 * instructions and the answer.
 */
export class ChatSpan {
  readonly span: Span;
  private readonly startedAt: number;
  private firstChunk = false;
  /** The transcript as given to the model (for captured content). */
  private input: readonly AgentMessage[] = [];

  constructor(
    private readonly env: RunSpansEnv,
    parent: Context,
    step: number,
    now: number,
  ) {
    const attributes: Attributes = {
      [GEN_AI.OPERATION_NAME]: OPERATION.CHAT,
      [GEN_AI.REQUEST_STREAM]: true,
      [RXAGENT.STEP]: step,
      ...requestAttributes(env.request),
    };
    if (env.provider) attributes[GEN_AI.PROVIDER_NAME] = providerName(env.provider);
    if (env.modelId) attributes[GEN_AI.REQUEST_MODEL] = env.modelId;
    if (env.conversationId) attributes[GEN_AI.CONVERSATION_ID] = env.conversationId;
    if (env.captureContent && env.request?.system !== undefined) {
      attributes[GEN_AI.SYSTEM_INSTRUCTIONS] = boundedJson(
        systemInstructions(env.request.system),
        env.maxContentLength,
      );
    }
    this.span = env.tracer.startSpan(
      env.modelId ? `${OPERATION.CHAT} ${env.modelId}` : OPERATION.CHAT,
      { kind: SpanKind.CLIENT, attributes, startTime: hrTime(now) },
      parent,
    );
    this.startedAt = now;
  }

  /** The model was given this transcript (the chat history of the call). */
  sent(messages: readonly AgentMessage[]): void {
    this.input = messages;
  }

  chunk(now: number): void {
    if (this.firstChunk) return;
    this.firstChunk = true;
    this.span.setAttribute(GEN_AI.RESPONSE_TIME_TO_FIRST_CHUNK, (now - this.startedAt) / 1000);
    this.span.addEvent(RXAGENT.EVENT_FIRST_CHUNK, {}, hrTime(now));
  }

  retry(attributes: Attributes, now: number): void {
    this.span.addEvent(RXAGENT.EVENT_RETRY, attributes, hrTime(now));
    // The streamed part of the failed attempt is discarded: the next chunk is a first one again.
    this.firstChunk = false;
  }

  /** The answer is complete: the response attributes, then the span ends. */
  end(message: AssistantMessage, now: number): void {
    const { env } = this;
    const attributes: Attributes = {
      [GEN_AI.PROVIDER_NAME]: providerName(env.provider ?? message.provider),
      [GEN_AI.RESPONSE_MODEL]: message.model,
      [GEN_AI.RESPONSE_FINISH_REASONS]: [finishReason(message.stopReason)],
      ...usageAttributes(message.usage, true),
    };
    if (message.responseId) attributes[GEN_AI.RESPONSE_ID] = message.responseId;
    if (!env.modelId) {
      attributes[GEN_AI.REQUEST_MODEL] = message.model;
      this.span.updateName(`${OPERATION.CHAT} ${message.model}`);
    }
    if (env.captureContent) {
      attributes[GEN_AI.INPUT_MESSAGES] = boundedJson(conventionMessages(this.input), env.maxContentLength);
      attributes[GEN_AI.OUTPUT_MESSAGES] = boundedJson(conventionMessages([message]), env.maxContentLength);
    }
    this.span.setAttributes(attributes);
    if (message.stopReason === 'error') {
      this.span.setAttribute(GEN_AI.ERROR_TYPE, 'model_error');
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: 'The model call ended with an error.' });
    }
    this.span.end(hrTime(now));
  }

  /** The call did not complete: `error.type` and an error status, then the span ends. */
  fail(errorType: string, message: string, now: number): void {
    this.span.setAttribute(GEN_AI.ERROR_TYPE, errorType);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: boundedText(message, 1024) });
    this.span.end(hrTime(now));
  }

  /** The context tool spans of this step are children of. */
  context(parent: Context): Context {
    return trace.setSpan(parent, this.span);
  }
}
