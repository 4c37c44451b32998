import { SpanKind, SpanStatusCode, type Attributes, type Context, type Span } from '@opentelemetry/api';
import type { ToolResult } from '@rxagent/core';
import { boundedText } from './content.js';
import type { RunSpansEnv } from './run-spans-env.js';
import { GEN_AI, OPERATION, RXAGENT } from './semconv.js';
import { hrTime } from './span-time.js';
import { toolKey } from './with-span.js';

interface ToolSpan {
  span: Span;
  approvalAt?: number;
}

/**
 * The `execute_tool` spans of one run's calls: each started at `tool-start` (with the tool's
 * description when the run gave it), its approval recorded as events, ended at `tool-end`
 * — an error result with `error.type` the class of what the tool threw, `timeout`, or
 * `tool_error`. While open, a span is in the tracer's table so that `toolScope` makes it
 * active inside the tool.
 */
export class ToolSpans {
  private readonly open = new Map<string, ToolSpan>();
  private readonly descriptions: ReadonlyMap<string, string>;

  constructor(
    private readonly env: RunSpansEnv,
    private readonly runId: () => string,
  ) {
    this.descriptions = new Map((env.request?.tools ?? []).map((t) => [t.name, t.description]));
  }

  /** The span of a call still running (guardrail spans of the call are its children). */
  span(toolCallId: string): Span | undefined {
    return this.open.get(toolCallId)?.span;
  }

  start(
    toolCallId: string,
    toolName: string,
    args: unknown,
    step: number,
    parent: Context,
    now: number,
  ): void {
    const { env } = this;
    const attributes: Attributes = {
      [GEN_AI.OPERATION_NAME]: OPERATION.EXECUTE_TOOL,
      [GEN_AI.TOOL_NAME]: toolName,
      [GEN_AI.TOOL_CALL_ID]: toolCallId,
      [GEN_AI.TOOL_TYPE]: 'function',
      [RXAGENT.STEP]: step,
    };
    const description = this.descriptions.get(toolName);
    if (description) attributes[GEN_AI.TOOL_DESCRIPTION] = description;
    if (env.captureContent) attributes[GEN_AI.TOOL_CALL_ARGUMENTS] = boundedText(args, env.maxContentLength);
    const span = env.tracer.startSpan(
      `${OPERATION.EXECUTE_TOOL} ${toolName}`,
      { kind: SpanKind.INTERNAL, attributes, startTime: hrTime(now) },
      parent,
    );
    this.open.set(toolCallId, { span });
    env.tools.set(toolKey(this.runId(), toolCallId), span);
  }

  approvalRequested(toolCallId: string, now: number): void {
    const tool = this.open.get(toolCallId);
    if (!tool) return;
    tool.approvalAt = now;
    tool.span.addEvent(RXAGENT.EVENT_APPROVAL_REQUEST, {}, hrTime(now));
  }

  approvalEnded(toolCallId: string, approved: boolean, reason: string | undefined, now: number): void {
    const tool = this.open.get(toolCallId);
    if (!tool) return;
    const attributes: Attributes = {
      'rxagent.approval.approved': approved,
      'rxagent.approval.wait_ms': tool.approvalAt === undefined ? 0 : now - tool.approvalAt,
    };
    if (reason !== undefined)
      attributes['rxagent.approval.reason'] = boundedText(reason, this.env.maxContentLength);
    tool.span.addEvent(RXAGENT.EVENT_APPROVAL_END, attributes, hrTime(now));
  }

  end(toolCallId: string, result: ToolResult, isError: boolean, now: number): void {
    const tool = this.open.get(toolCallId);
    if (!tool) return;
    const { span } = tool;
    const { env } = this;
    span.setAttribute(RXAGENT.TOOL_IS_ERROR, isError);
    const text = result.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('');
    if (env.captureContent)
      span.setAttribute(GEN_AI.TOOL_CALL_RESULT, boundedText(text, env.maxContentLength));
    if (isError) {
      span.setAttribute(GEN_AI.ERROR_TYPE, result.errorType ?? 'tool_error');
      // The result text is content (it may quote the arguments): only with captureContent.
      const message = env.captureContent
        ? boundedText(text, 1024)
        : 'The tool call ended with an error result.';
      span.setStatus({ code: SpanStatusCode.ERROR, message });
    }
    span.end(hrTime(now));
    this.forget(toolCallId);
  }

  /**
   * Ends every open span: with `errorType`, as failed (the run was cancelled or failed), else
   * with only a `rxagent.cancelled` event (the run ended by itself before the call did).
   */
  closeAll(why: string, now: number, errorType?: string): void {
    for (const [id, tool] of this.open) {
      tool.span.addEvent(RXAGENT.EVENT_CANCELLED, { 'rxagent.cancelled.reason': why }, hrTime(now));
      if (errorType) {
        tool.span.setAttribute(GEN_AI.ERROR_TYPE, errorType);
        tool.span.setStatus({ code: SpanStatusCode.ERROR, message: why });
      }
      tool.span.end(hrTime(now));
      this.forget(id);
    }
  }

  private forget(toolCallId: string): void {
    this.open.delete(toolCallId);
    this.env.tools.delete(toolKey(this.runId(), toolCallId));
  }
}
