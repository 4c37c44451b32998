// Regression tests for the defects listed in the loop-rebuild issue, each asserting the fixed
// behaviour (the Rx laws' properties cover the same ground at random).
import {
  asapScheduler,
  concat,
  delay,
  endWith,
  filter,
  finalize,
  first,
  from,
  lastValueFrom,
  map,
  Observable,
  observeOn,
  of,
  take,
  timer,
  toArray,
  type MonoTypeOperatorFunction,
} from 'rxjs';
import { z } from 'zod';
import {
  assistantMessage,
  finishEvent,
  scriptedModel,
  textTurn,
  toolCallTurn,
  usage,
} from '@rxagent/testing';
import { PipelineError } from '../errors/pipeline-error.js';
import { NetworkError } from '../errors/provider-errors.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { runAgent } from '../loop/run-agent.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AssistantMessage } from '../messages/types.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import type { ModelEvent } from '../model/model-event.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { stopWhen } from '../operators/stop-when.js';
import { stepCountIs } from '../stop/stop-conditions.js';
import { tool } from '../tools/tool.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A synchronous tool that counts its executions. */
function countingTool() {
  const counter = { executions: 0 };
  const echo = tool({
    name: 'echo',
    description: 'echo',
    parameters: z.object({}),
    execute: () => {
      counter.executions++;
      return 'echoed';
    },
  });
  return { echo, counter };
}

/** Subscribes and resolves with the run's error; rejects if it completes or hangs. */
function runError(config: RunAgentConfig, hangMs = 2_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const events: string[] = [];
    const hang = setTimeout(() => {
      subscription.unsubscribe();
      reject(new Error(`The run hung after ${events.join(', ')}`));
    }, hangMs);
    const subscription = runAgent(config).subscribe({
      next: (e) => events.push(e.type),
      error: (error: unknown) => {
        clearTimeout(hang);
        resolve(error);
      },
      complete: () => {
        clearTimeout(hang);
        reject(new Error(`The run completed: ${events.join(', ')}`));
      },
    });
  });
}

describe('issue regressions: an async operator after executeTools()', () => {
  const cases: [string, MonoTypeOperatorFunction<LoopItem>][] = [
    ['observeOn(asapScheduler)', observeOn<LoopItem>(asapScheduler)],
    ['delay(0)', delay<LoopItem>(0)],
  ];
  for (const [name, operator] of cases) {
    it(`with ${name}, the first model request carries the prompt`, async () => {
      const model = scriptedModel([toolCallTurn({ id: 'c1', name: 'echo', args: {} }), textTurn('done')]);
      const { echo } = countingTool();
      const events = await lastValueFrom(
        runAgent({
          model,
          tools: [echo],
          prompt: 'hi',
          pipeline: (t$) => t$.pipe(llmStep(), executeTools(), operator),
        }).pipe(toArray()),
      );
      expect(model.requests.map((r) => r.messages.length)).toEqual([1, 3]);
      expect(model.requests[0]?.messages[0]).toMatchObject({ role: 'user', content: 'hi' });
      expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    });
  }
});

describe('issue regressions: misused pipelines fail with PipelineError', () => {
  const model = () => scriptedModel([toolCallTurn({ id: 'c1', name: 'echo', args: {} }), textTurn('done')]);

  it('a filter dropping the turn: PipelineError, no hang', async () => {
    const { echo } = countingTool();
    const error = await runError({
      model: model(),
      tools: [echo],
      prompt: 'hi',
      pipeline: (t$) =>
        t$.pipe(
          llmStep(),
          executeTools(),
          filter((e) => !isTurn(e)),
        ),
    });
    expect(PipelineError.isInstance(error)).toBe(true);
  });

  it('stopWhen() before llmStep(): a typed PipelineError naming stopWhen()', async () => {
    const m = model();
    const error = await runError({
      model: m,
      prompt: 'hi',
      pipeline: (t$) => t$.pipe(stopWhen(stepCountIs(2)), llmStep(), executeTools()),
    });
    expect(PipelineError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('stopWhen()');
    expect(m.calls).toBe(0);
  });

  it('executeTools() before llmStep(): PipelineError naming executeTools()', async () => {
    const { echo, counter } = countingTool();
    const error = await runError({
      model: model(),
      tools: [echo],
      prompt: 'hi',
      pipeline: (t$) => t$.pipe(executeTools(), llmStep()),
    });
    expect(PipelineError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('executeTools()');
    expect(counter.executions).toBe(0);
  });
});

describe('issue regressions: unsubscribing stops the run', () => {
  it('take(6) with a synchronous model and tool: no tool executes after the subscriber left', async () => {
    const model = scriptedModel([toolCallTurn({ id: 'c1', name: 'echo', args: {} }), textTurn('done')]);
    const { echo, counter } = countingTool();
    const events = await lastValueFrom(
      runAgent({ model, tools: [echo], prompt: 'hi' }).pipe(take(6), toArray()),
    );
    await sleep(5);
    expect(events).toHaveLength(6);
    expect(counter.executions).toBe(0);
    expect(model.calls).toBe(1);
  });

  it('take(n) for every n with a synchronous model and tool: nothing starts after the teardown', async () => {
    const script = () =>
      scriptedModel([toolCallTurn({ id: 'c1', name: 'echo', args: {} }), textTurn('done')]);
    const { echo } = countingTool();
    const all = await lastValueFrom(
      runAgent({ model: script(), tools: [echo], prompt: 'hi' }).pipe(toArray()),
    );
    for (let n = 1; n < all.length; n++) {
      const model = script();
      const { echo: counted, counter } = countingTool();
      let atTeardown: { calls: number; executions: number } | undefined;
      await lastValueFrom(
        runAgent({ model, tools: [counted], prompt: 'hi' }).pipe(
          finalize(() => (atTeardown = { calls: model.calls, executions: counter.executions })),
          take(n),
          toArray(),
        ),
      );
      await sleep(1);
      expect({ n, calls: model.calls, executions: counter.executions }).toEqual({ n, ...atTeardown });
    }
  });

  /** A tool that reports progress, then waits until aborted (or 1 s); its signals by call id. */
  function waitingTool() {
    const signals = new Map<string, AbortSignal>();
    const abortedWhileRunning = new Set<string>();
    const wait = tool({
      name: 'wait',
      description: 'waits',
      parameters: z.object({}),
      execute: async (_args, { signal, progress, toolCallId }) => {
        signals.set(toolCallId, signal);
        progress('waiting');
        await new Promise<void>((resolve) => {
          const timeout = setTimeout(resolve, 1_000);
          signal.addEventListener('abort', () => {
            abortedWhileRunning.add(toolCallId);
            clearTimeout(timeout);
            resolve();
          });
        });
        return 'done waiting';
      },
    });
    return { wait, signals, abortedWhileRunning };
  }
  const twoCalls = () =>
    scriptedModel([
      toolCallTurn([
        { id: 'c1', name: 'wait', args: {} },
        { id: 'c2', name: 'wait', args: {} },
      ]),
      textTurn('done'),
    ]);

  it("first(e => e.type === 'tool-start') with an async tool: the running tool's AbortSignal is aborted", async () => {
    const model = twoCalls();
    const { wait, signals, abortedWhileRunning } = waitingTool();
    // The second call's tool-start: the first call's tool is running (asynchronously) by then.
    const event = await lastValueFrom(
      runAgent({ model, tools: [wait], prompt: 'hi' }).pipe(
        first((e) => e.type === 'tool-start' && e.toolCallId === 'c2'),
      ),
    );
    await sleep(5);
    expect(event).toMatchObject({ type: 'tool-start', toolCallId: 'c2' });
    expect(signals.get('c1')?.aborted).toBe(true);
    expect([...abortedWhileRunning]).toContain('c1');
    // Nothing started after the subscriber left.
    expect([...signals.keys()].every((id) => signals.get(id)?.aborted)).toBe(true);
    expect(model.calls).toBe(1);
  });

  it("first(e => e.type === 'tool-start'), the first one: the tool does not run on", async () => {
    const model = twoCalls();
    const { wait, signals } = waitingTool();
    await lastValueFrom(
      runAgent({ model, tools: [wait], prompt: 'hi' }).pipe(first((e) => e.type === 'tool-start')),
    );
    await sleep(5);
    // Unsubscribed at the first call's tool-start: a tool that started anyway was aborted.
    expect([...signals.values()].every((signal) => signal.aborted)).toBe(true);
    expect(model.calls).toBe(1);
  });

  it("first() while an async tool runs (its progress event): the tool's AbortSignal is aborted", async () => {
    const model = scriptedModel([toolCallTurn({ id: 'c1', name: 'wait', args: {} }), textTurn('done')]);
    const { wait, signals, abortedWhileRunning } = waitingTool();
    await lastValueFrom(
      runAgent({ model, tools: [wait], prompt: 'hi' }).pipe(first((e) => e.type === 'tool-update')),
    );
    await sleep(5);
    expect(signals.get('c1')?.aborted).toBe(true);
    expect([...abortedWhileRunning]).toEqual(['c1']);
    expect(model.calls).toBe(1);
  });
});

describe('issue regressions: model streams built any legal way', () => {
  const answer: AssistantMessage = assistantMessage([{ type: 'text', text: 'Hello' }], 'stop', {
    usage: { inputTokens: 10, outputTokens: 5 },
  });
  const finish = finishEvent(answer);
  const delta: ModelEvent = { type: 'text-delta', index: 0, text: 'Hello' };
  const usageEvent: ModelEvent = { type: 'usage', usage: answer.usage };

  /** A model whose every call returns `build()`, counting calls. */
  function modelOf(build: () => Observable<ModelEvent>): ChatModel & { calls: number } {
    const model = {
      provider: 'test',
      modelId: 'test-model',
      calls: 0,
      stream: (_request: ChatRequest) => {
        model.calls++;
        return build();
      },
    };
    return model;
  }

  async function runOnce(model: ChatModel): Promise<AgentEvent[]> {
    const events = await lastValueFrom(runAgent({ model, prompt: 'hi' }).pipe(toArray()));
    await sleep(5);
    return events;
  }

  function expectOneAnswer(events: AgentEvent[]) {
    const end = events.at(-1) as AgentEndEvent;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 1 });
    const assistants = end.messages.filter((m) => m.role === 'assistant');
    expect(assistants).toHaveLength(1);
    expect(assistants[0]).toMatchObject({ content: [{ type: 'text', text: 'Hello' }] });
    expect(events.filter((e) => e.type === 'message-end' && e.message.role === 'assistant')).toHaveLength(1);
    expect(end.usage).toEqual(usage({ inputTokens: 10, outputTokens: 5 }));
    expect(validateMessageSequence(end.messages)).toEqual([]);
  }

  it('concat(timer(1).pipe(map(…)), of(finish)): one assistant message, usage counted once', async () => {
    const model = modelOf(() => concat(timer(1).pipe(map(() => delta)), of(usageEvent, finish)));
    expectOneAnswer(await runOnce(model));
    expect(model.calls).toBe(1);
  });

  it('endWith(finish): one assistant message, usage counted once', async () => {
    const model = modelOf(() => from([delta, usageEvent]).pipe(endWith(finish)));
    expectOneAnswer(await runOnce(model));
    expect(model.calls).toBe(1);
  });

  it('finish, complete, then a retryable error: no second model call after agent-end', async () => {
    const model = modelOf(
      () =>
        new Observable<ModelEvent>((subscriber) => {
          subscriber.next(delta);
          subscriber.next(finish);
          subscriber.complete();
          subscriber.error(new NetworkError('x'));
        }),
    );
    const events = await runOnce(model);
    expectOneAnswer(events);
    expect(events.some((e) => e.type === 'retry')).toBe(false);
    expect(model.calls).toBe(1);
  });

  it('finish, complete, then a retryable error later: no second model call after agent-end', async () => {
    const model = modelOf(
      () =>
        new Observable<ModelEvent>((subscriber) => {
          subscriber.next(delta);
          subscriber.next(finish);
          subscriber.complete();
          setTimeout(() => subscriber.error(new NetworkError('x')), 1);
        }),
    );
    const events = await runOnce(model);
    expectOneAnswer(events);
    expect(model.calls).toBe(1);
  });

  it('a next after complete does not resurrect a message', async () => {
    const ghost = finishEvent(
      assistantMessage([{ type: 'text', text: 'ghost' }], 'stop', { usage: { inputTokens: 99 } }),
    );
    const model = modelOf(
      () =>
        new Observable<ModelEvent>((subscriber) => {
          subscriber.next(delta);
          subscriber.next(usageEvent);
          subscriber.next(finish);
          subscriber.complete();
          subscriber.next({ type: 'text-delta', index: 0, text: 'ghost' });
          subscriber.next(ghost);
          subscriber.complete();
        }),
    );
    const events = await runOnce(model);
    expectOneAnswer(events);
    expect(JSON.stringify(events)).not.toContain('ghost');
  });
});

describe('issue regressions: ChatRequest.messages is a snapshot', () => {
  it('a model that keeps the request sees the same messages later', async () => {
    const inner = scriptedModel([
      toolCallTurn({ id: 'c1', name: 'echo', args: {} }),
      toolCallTurn({ id: 'c2', name: 'echo', args: {} }),
      textTurn('done'),
    ]);
    const kept: ChatRequest[] = [];
    const model: ChatModel = {
      provider: inner.provider,
      modelId: inner.modelId,
      stream: (request) => {
        kept.push(request);
        return inner.stream(request);
      },
    };
    const { echo } = countingTool();
    await lastValueFrom(runAgent({ model, tools: [echo], prompt: 'hi' }).pipe(toArray()));
    // Each kept request still has the messages it was sent with (not the later transcript).
    expect(kept.map((r) => r.messages.length)).toEqual([1, 3, 5]);
    expect(kept.map((r) => JSON.stringify(r.messages))).toEqual(
      inner.requests.map((r) => JSON.stringify(r.messages)),
    );
  });
});
