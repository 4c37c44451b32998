import {
  asyncScheduler,
  defer,
  EMPTY,
  expand,
  finalize,
  last,
  map,
  mergeMap,
  tap,
  type Observable,
} from 'rxjs';
import type {
  AnyTool,
  AssistantMessage,
  ChatModel,
  Message,
  ToolCallPart,
  ToolContext,
  ToolResultMessage,
} from '@rxagent/core';
import { toToolResult } from '@rxagent/core/provider';

/**
 * What `expandLoop` takes.
 *
 * @example
 * const config: ExpandLoopConfig = { model: asyncToolLoopModel(100), tool: asyncNoopTool, prompt: 'go' };
 */
export interface ExpandLoopConfig {
  model: ChatModel;
  /** The one tool the model calls. */
  tool: AnyTool;
  prompt: string;
  /** Model calls at most (default: no limit, the loop ends when a step has no tool call). */
  maxSteps?: number;
}

const noop = () => undefined;

/**
 * The smallest RxJS agent loop, the floor of the asynchronous tool-loop rows: `expand` runs
 * the steps; a step is the model's stream through `tap` (the tool calls and the finished
 * message kept), `last()`, then `mergeMap` of an `async` function that appends the message,
 * awaits the tool's `execute` for each call (no argument check, no hooks) and appends the
 * results; `expand` starts the next step while one had tool calls. The same shape as the
 * "rxjs: expand() loop over from(async generator)" case of `../shared/bench-peers`.
 *
 * Emits the number of model calls made after each step (the last value is the run's total).
 * Cold: each subscription is a run with its own transcript; unsubscribing stops it at the
 * model stream's next event and aborts the tools' `signal`.
 *
 * @param config The model, the tool and the prompt.
 * @return The model calls made, after each step.
 *
 * @example
 * const calls = await lastValueFrom(expandLoop({ model: asyncToolLoopModel(100), tool: asyncNoopTool, prompt: 'go' })); // 101
 */
export function expandLoop(config: ExpandLoopConfig): Observable<number> {
  return defer(() => {
    const { model, tool } = config;
    const maxSteps = config.maxSteps ?? Infinity;
    const messages: Message[] = [{ role: 'user', content: config.prompt, timestamp: Date.now() }];
    const runId = 'expand-loop';
    let calls = 0;
    let controller: AbortController | undefined;

    const context = (call: ToolCallPart): ToolContext => ({
      runId,
      toolCallId: call.id,
      toolName: call.name,
      // Made on first read: most tools never look at it.
      get signal() {
        return (controller ??= new AbortController()).signal;
      },
      progress: noop,
      messages,
      scheduler: asyncScheduler,
    });

    const runTool = async (call: ToolCallPart): Promise<ToolResultMessage> => {
      const value: unknown = await tool.execute(call.args, context(call));
      const result = toToolResult(tool, value);
      return {
        role: 'tool',
        toolCallId: call.id,
        toolName: call.name,
        content: result.content,
        isError: result.isError,
        timestamp: Date.now(),
      };
    };

    const step = (): Observable<boolean> =>
      defer(() => {
        calls++;
        const toolCalls: ToolCallPart[] = [];
        let message: AssistantMessage | undefined;
        return model.stream({ messages }).pipe(
          tap((event) => {
            if (event.type === 'toolcall-end') toolCalls.push(event.call);
            else if (event.type === 'finish') message = event.message;
          }),
          last(),
          mergeMap(async () => {
            if (!message) throw new Error(`The ${model.provider} stream ended without a finish event.`);
            messages.push(message);
            if (toolCalls.length === 0 || calls >= maxSteps) return false;
            messages.push(...(await Promise.all(toolCalls.map(runTool))));
            return true;
          }),
        );
      });

    return step().pipe(
      expand((again) => (again ? step() : EMPTY)),
      map(() => calls),
      finalize(() => controller?.abort()),
    );
  });
}
