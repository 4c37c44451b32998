import { Observable, of, tap } from 'rxjs';
import {
  assistantMessage,
  collectEvents,
  createTestScheduler,
  errorTurn,
  finishEvent,
  scriptedModel,
  textTurn,
  timeline,
  toMarbleLetters,
  toolCallTurn,
  truncatedTurn,
} from '@rxagent/testing';
import { z } from 'zod';
import { InvalidModelEventError } from '../errors/agent-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { ContextOverflowError, NetworkError, PartialStreamError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { Message } from '../messages/types.js';
import type { ChatModel } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { withState } from '../state/with-state.js';
import { tool } from '../tools/tool.js';
import { LENGTH_RECOVERY_TEXT } from './assistant-message.js';
import { compactContext } from './compact-context.js';
import { executeTools } from './execute-tools.js';
import { llmStep } from './llm-step.js';

describe('llmStep retries', () => {
  it('discards the partial message of a failed attempt (retry event, state drops it)', async () => {
    const model = scriptedModel([
      errorTurn(new NetworkError('socket hang up'), textTurn('Hel').events.slice(0, 1)),
      textTurn('Hello'),
    ]);
    const { events$, state$ } = withState(
      runAgent({ model, prompt: 'hi', retryBackoff: { initialDelayMs: 1, jitter: 0 } }),
    );
    const streamingAtRetry: unknown[] = [];
    const events: AgentEvent[] = [];
    events$
      .pipe(tap((e) => e.type === 'retry' && streamingAtRetry.push(state$.value.streamingMessage)))
      .subscribe((e) => events.push(e));
    await new Promise((r) => setTimeout(r, 30));
    expect(streamingAtRetry).toEqual([undefined]);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({
      attempt: 1,
      delayMs: 1,
      error: { name: 'NetworkError', message: 'socket hang up', retryable: true },
    });
    const assistants = state$.value.messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]).toMatchObject({ content: [{ type: 'text', text: 'Hello' }] });
  });

  it('treats a stream that ends without finish as a retryable PartialStreamError', () => {
    createTestScheduler().run(({ expectObservable }) => {
      const model = scriptedModel([truncatedTurn(textTurn('Hello')), textTurn('Hello')]);
      const run$ = runAgent({ model, prompt: 'hi', retryBackoff: { jitter: 0 } });
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSESUUUR'], [1000, 'SUUUENZ|']));
    });
  });

  it('never repeats a tool: a retried model call after a tool step re-runs only the call', async () => {
    let executions = 0;
    const counter = tool({
      name: 'count',
      description: 'count',
      parameters: z.object({}),
      execute: () => ++executions,
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'count' }),
      errorTurn(new PartialStreamError('cut')),
      textTurn('done'),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [counter], prompt: 'go', retryBackoff: { initialDelayMs: 1, jitter: 0 } }),
    );
    expect(executions).toBe(1);
    expect(model.calls).toBe(3);
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ reason: 'completed', steps: 2 });
  });

  it('wraps an untyped model failure into a non-retryable ProviderError', async () => {
    const broken: ChatModel = {
      provider: 'custom',
      modelId: 'x',
      stream: () => new Observable<ModelEvent>((s) => s.error(new TypeError('undefined is not a function'))),
    };
    const error = await collectEvents(runAgent({ model: broken, prompt: 'hi' })).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).message).toBe(
      'The custom model call failed: undefined is not a function',
    );
    expect((error as ProviderError).retryable).toBe(false);
  });

  it('fails with InvalidModelEventError when the model emits something that is not an event', async () => {
    const weird: ChatModel = { provider: 'w', modelId: 'w', stream: () => of(42 as unknown as ModelEvent) };
    await expect(collectEvents(runAgent({ model: weird, prompt: 'hi' }))).rejects.toBeInstanceOf(
      InvalidModelEventError,
    );
  });

  it('tolerates events out of order: a delta before its start, unknown events, events after finish', async () => {
    const events: ModelEvent[] = [
      { type: 'toolcall-delta', index: 1, argsText: '{}' },
      { type: 'mystery' } as unknown as ModelEvent,
      { type: 'text-delta', index: 0, text: 'hi' },
      finishEvent(assistantMessage([{ type: 'text', text: 'hi' }])),
      { type: 'text-delta', index: 0, text: 'late' },
    ];
    const model: ChatModel = { provider: 'o', modelId: 'o', stream: () => of(...events) };
    const run = await collectEvents(runAgent({ model, prompt: 'hi' }));
    expect(run.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(run.filter((e) => e.type === 'message-update')).toHaveLength(2);
  });
});

describe('llmStep output-length recovery', () => {
  it('asks the model to continue, at most 3 times a run', async () => {
    const cut = () => textTurn('part', { stopReason: 'length' });
    const model = scriptedModel([cut(), cut(), cut(), cut(), textTurn('never')]);
    const events = await collectEvents(runAgent({ model, prompt: 'write a lot' }));
    expect(model.calls).toBe(4);
    const users = events.flatMap((e) =>
      e.type === 'message-end' && e.message.role === 'user' ? [e.message.content] : [],
    );
    expect(users).toEqual(['write a lot', LENGTH_RECOVERY_TEXT, LENGTH_RECOVERY_TEXT, LENGTH_RECOVERY_TEXT]);
    expect(events.at(-1)).toMatchObject({ reason: 'completed', steps: 4 });
  });

  it('drops truncated tool calls of a length stop and recovers', async () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'x', argsText: '{"path": "a' }, { stopReason: 'length' }),
      textTurn('ok'),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go' }));
    const first = events.find((e) => e.type === 'message-end' && e.message.role === 'assistant');
    expect(first).toMatchObject({ message: { content: [], stopReason: 'length' } });
    expect(events.filter((e) => e.type === 'tool-start')).toHaveLength(0);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({ role: 'user', content: LENGTH_RECOVERY_TEXT });
  });
});

describe('llmStep with compactContext', () => {
  it('sends the projection, emits compaction, and leaves the transcript alone', async () => {
    const model = scriptedModel([textTurn('ok')]);
    const events = await collectEvents(
      runAgent({
        model,
        messages: [
          { role: 'user', content: 'old', timestamp: 0 },
          assistantMessage([{ type: 'text', text: 'old answer' }]),
        ],
        prompt: 'new',
        contextManager: {
          project: (messages) => ({
            messages: messages.slice(-1),
            compaction: { strategy: 'drop-old', tokensBefore: 30, tokensAfter: 10, summarized: 2 },
          }),
        },
      }),
    );
    expect(model.requests[0]?.messages).toEqual([expect.objectContaining({ role: 'user', content: 'new' })]);
    expect(events.find((e) => e.type === 'compaction')).toMatchObject({
      strategy: 'drop-old',
      summarized: 2,
    });
  });

  it('recovers once from a context overflow through the manager', async () => {
    const overflow = new ContextOverflowError('prompt is too long');
    const model = scriptedModel([errorTurn(overflow), errorTurn(overflow), textTurn('never')]);
    const recovered: Message[][] = [];
    const manager = {
      project: (messages: readonly Message[]) => ({ messages }),
      recoverOverflow: (messages: readonly Message[]) => {
        recovered.push(messages.slice());
        return {
          messages: messages.slice(-1),
          compaction: { strategy: 'overflow', tokensBefore: 9, tokensAfter: 1, summarized: 1 },
        };
      },
    };
    const error = await collectEvents(
      runAgent({
        model,
        prompt: 'hi',
        pipeline: (t$) => t$.pipe(compactContext(manager), llmStep(), executeTools()),
      }),
    ).catch((e: unknown) => e);
    expect(recovered).toHaveLength(1);
    expect(model.calls).toBe(2);
    expect(ContextOverflowError.isInstance(error)).toBe(true);
  });

  it('reports a failing manager as a warning and sends the context as is', async () => {
    const model = scriptedModel([textTurn('ok')]);
    const events = await collectEvents(
      runAgent({
        model,
        prompt: 'hi',
        contextManager: {
          project: () => {
            throw new Error('tokenizer crashed');
          },
        },
      }),
    );
    expect(events.find((e) => e.type === 'warning')).toMatchObject({
      message: expect.stringContaining('tokenizer crashed'),
    });
    expect(events.at(-1)).toMatchObject({ reason: 'completed' });
  });
});
