import { addUsage, type AssistantMessage, type ChatModel, type ChatRequest } from '@rxagent/core';
import {
  ErrorCode,
  McpError,
  type CreateMessageRequestParams,
  type CreateMessageResult,
} from '@modelcontextprotocol/sdk/types.js';
import { filter, lastValueFrom, map, takeUntil } from 'rxjs';
import type { CallInFlight } from '../calls-in-flight.js';
import { aborted } from './answer-elicitation.js';
import { samplingMessages } from './sampling-messages.js';

/**
 * How a server's `sampling/createMessage` requests are answered. Declared to the server only
 * when given.
 *
 * @example
 * const sampling: McpSamplingOptions = { model: openai('gpt-4o-mini'), needsApproval: true, maxTokens: 512 };
 */
export interface McpSamplingOptions {
  /** The model that answers: the application's choice, never the run's own model unless you pass it. */
  model: ChatModel;
  /**
   * Ask the run's approver first (an `approval-request` for `<server>:sampling`, decided with
   * `Agent.approve` like a tool call). Default false. A request with no run to ask is refused.
   */
  needsApproval?: boolean;
  /** Most output tokens one request gets (a request asking for more gets this). Default 1,024. */
  maxTokens?: number;
  /** Largest request answered: its messages and system prompt as JSON. Default 256 KiB. */
  maxRequestBytes?: number;
}

const USER_REJECTED = -1;
const FINISH: Record<string, string> = { stop: 'endTurn', length: 'maxTokens' };

/** The run's approval of a sampling request, when the options ask for one; throws when refused. */
async function approve(
  server: string,
  params: CreateMessageRequestParams,
  owner: CallInFlight | undefined,
  signal: AbortSignal,
) {
  if (!owner?.ctx.requestApproval) {
    throw new McpError(
      USER_REJECTED,
      `Sampling by "${server}" needs approval and no run could be asked: refused.`,
    );
  }
  owner.sampled = (owner.sampled ?? 0) + 1;
  const verdict = await lastValueFrom(
    owner.ctx
      .requestApproval({
        toolCallId: `${owner.ctx.toolCallId}/sampling-${owner.sampled}`,
        toolName: `${server}:sampling`,
        args: {
          messages: params.messages.length,
          maxTokens: params.maxTokens,
          systemPrompt: params.systemPrompt,
        },
      })
      .pipe(takeUntil(aborted(signal, owner.ctx.signal))),
    { defaultValue: { approved: false, reason: 'The request ended before a decision.' } },
  );
  if (!verdict.approved)
    throw new McpError(USER_REJECTED, `Sampling was refused: ${verdict.reason ?? 'rejected'}.`);
}

/**
 * Answers a server's `sampling/createMessage` with the application's model, after the
 * optional approval and within the size limits; the usage is added to the result of the call
 * in flight. Refusals are MCP errors the server reads (the call goes on).
 *
 * @example
 * client.setRequestHandler(CreateMessageRequestSchema, (req, extra) => answerSampling('docs', options, req.params, owner, extra.signal));
 */
export async function answerSampling(
  server: string,
  options: McpSamplingOptions,
  params: CreateMessageRequestParams,
  owner: CallInFlight | 'ambiguous' | undefined,
  signal: AbortSignal,
): Promise<CreateMessageResult> {
  const call = owner === 'ambiguous' ? undefined : owner;
  const maxBytes = options.maxRequestBytes ?? 256 * 1024;
  const bytes = Buffer.byteLength(JSON.stringify([params.systemPrompt ?? '', params.messages]), 'utf8');
  if (bytes > maxBytes) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `The sampling request is ${bytes} bytes, over the limit of ${maxBytes} (sampling.maxRequestBytes): refused.`,
    );
  }
  if (params.tools?.length || params.toolChoice) {
    throw new McpError(ErrorCode.InvalidParams, 'Sampling with tools is not supported by this client.');
  }
  if (options.needsApproval) await approve(server, params, call, signal);
  const request: ChatRequest = {
    messages: samplingMessages(params.messages, server, Date.now()),
    maxTokens: Math.min(params.maxTokens, options.maxTokens ?? 1024),
    ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
  };
  const message: AssistantMessage | undefined = await lastValueFrom(
    options.model.stream(request).pipe(
      filter((e) => e.type === 'finish'),
      map((e) => e.message),
      takeUntil(aborted(signal, ...(call ? [call.ctx.signal] : []))),
    ),
    { defaultValue: undefined },
  ).catch((error: unknown) => {
    // Only the class: a model's error text may hold what the server must not see.
    const name = error instanceof Error ? error.name : 'Error';
    throw new McpError(ErrorCode.InternalError, `The sampling model failed (${name}).`);
  });
  if (!message) throw new McpError(ErrorCode.InternalError, 'The sampling request was cancelled.');
  if (call) call.usage = call.usage ? addUsage(call.usage, message.usage) : message.usage;
  const text = message.content.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
  return {
    role: 'assistant',
    content: { type: 'text', text },
    model: message.model,
    stopReason: FINISH[message.stopReason] ?? message.stopReason,
  };
}
