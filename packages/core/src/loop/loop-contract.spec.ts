import { concat, lastValueFrom, map, of, Subject, takeWhile, tap, throwError, timer, toArray } from 'rxjs';
import { z } from 'zod';
import { collectEvents, createTestScheduler, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import {
  AgentConfigError,
  AgentStop,
  executeTools,
  isTurn,
  llmStep,
  runAgent,
  steer,
  stepCountIs,
  tool,
  type AgentEvent,
  type ToolMiddleware,
  type ToolResultMessage,
} from '../index.js';

const results = (events: AgentEvent[]): ToolResultMessage[] =>
  events.flatMap((e) => (e.type === 'message-end' && e.message.role === 'tool' ? [e.message] : []));
const text = (m: ToolResultMessage): string =>
  m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');

describe('the loop contract', () => {
  it('builds the pipeline once per run and subscribes it once per turn', async () => {
    let built = 0;
    const seen: number[] = [];
    const model = scriptedModel([toolCallTurn({ name: 'noop', args: {} }), textTurn('done')]);
    const noop = tool({ name: 'noop', description: 'n', parameters: z.object({}), execute: () => 'ok' });
    await collectEvents(
      runAgent({
        model,
        tools: [noop],
        prompt: 'go',
        pipeline: (turn$) => {
          built++;
          return turn$.pipe(
            tap((item) => isTurn(item) && seen.push(item.step)),
            llmStep(),
            executeTools(),
          );
        },
      }),
    );
    expect(built).toBe(1);
    expect(seen).toEqual([1, 2]);
  });

  it('honours the config stopWhen with a custom pipeline and refuses a contextManager', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'noop', args: {} }), textTurn('done')]);
    const noop = tool({ name: 'noop', description: 'n', parameters: z.object({}), execute: () => 'ok' });
    const events = await collectEvents(
      runAgent({
        model,
        tools: [noop],
        prompt: 'go',
        stopWhen: stepCountIs(1),
        pipeline: (t$) => t$.pipe(llmStep(), executeTools()),
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'steps-limit' });
    expect(model.calls).toBe(1);
    const refused = collectEvents(
      runAgent({
        model: scriptedModel([textTurn('x')]),
        prompt: 'go',
        contextManager: { project: (messages) => ({ messages }) },
        pipeline: (t$) => t$.pipe(llmStep(), executeTools()),
      }),
    );
    await expect(refused).rejects.toThrow(AgentConfigError);
    await expect(refused).rejects.toThrow(/compactContext\(manager\)/);
  });

  it('reports an error of a steering or follow-up source as a warning, and goes on', async () => {
    const events = await collectEvents(
      runAgent({
        model: scriptedModel([textTurn('fine')]),
        prompt: 'go',
        steering$: throwError(() => new Error('socket closed')),
        followUp$: concat(
          timer(0),
          throwError(() => new Error('queue gone')),
        ).pipe(map(() => 'never')),
      }),
    );
    const warnings = events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings[0]).toMatch(/socket closed/);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('gives every model call a request snapshot that later turns never change', async () => {
    const kept: { length: number; messages: readonly unknown[] }[] = [];
    const noop = tool({ name: 'noop', description: 'n', parameters: z.object({}), execute: () => 'ok' });
    const model = scriptedModel([
      (request) => (
        kept.push({ length: request.messages.length, messages: request.messages }),
        toolCallTurn({ name: 'noop', args: {} })
      ),
      textTurn('done'),
    ]);
    await collectEvents(runAgent({ model, tools: [noop], prompt: 'go' }));
    expect(kept[0]?.length).toBe(1);
    expect(kept[0]?.messages.length).toBe(1);
    expect(JSON.parse(JSON.stringify(kept[0]?.messages))).toHaveLength(1);
  });
});

describe('tools in the loop', () => {
  it('waits forever with a timeout of Infinity (not 1 ms), in virtual time', () => {
    createTestScheduler().run(({ expectObservable }) => {
      const slow = tool({
        name: 'slow',
        description: 's',
        parameters: z.object({}),
        execute: () => timer(5 * 60_000).pipe(map(() => 'late but fine')),
      });
      const run$ = runAgent({
        model: scriptedModel([toolCallTurn({ name: 'slow', args: {} }), textTurn('done')]),
        tools: [slow],
        prompt: 'go',
        toolTimeoutMs: Infinity,
      }).pipe(
        toArray(),
        map((events) => results(events).map(text)),
      );
      expectObservable(run$).toBe('300000ms (r|)', { r: ['late but fine'] });
    });
  });

  it("delivers an Observable tool's progress when it is emitted, and its last value as the result", () => {
    const scheduler = createTestScheduler();
    const seen: [number, unknown][] = [];
    const ends: unknown[] = [];
    scheduler.run(({ cold, flush }) => {
      const steps = tool({
        name: 'steps',
        description: 's',
        parameters: z.object({}),
        execute: () => cold('10ms a 9ms b 9ms (c|)', { a: 'one', b: 'two', c: 'result' }),
      });
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'steps', args: {} }), textTurn('done')]),
        tools: [steps],
        prompt: 'go',
      }).subscribe((e) => {
        if (e.type === 'tool-update') seen.push([scheduler.now(), e.progress]);
        if (e.type === 'tool-end') ends.push(e.result.content);
      });
      flush();
    });
    // Each value when it is emitted (not when the next one comes); the last is the result only.
    expect(seen).toEqual([
      [10, 'one'],
      [20, 'two'],
    ]);
    expect(ends).toEqual([[{ type: 'text', text: 'result' }]]);
  });

  it('lets a middleware see the whole stream of next, completion included', async () => {
    const completed: string[] = [];
    const logging: ToolMiddleware = (call, _ctx, next) =>
      concat(
        next(call).pipe(tap({ complete: () => completed.push(call.name) })),
        of({ content: [{ type: 'text' as const, text: 'annotated' }], isError: false }),
      );
    const echo = tool({ name: 'echo', description: 'e', parameters: z.object({}), execute: () => 'raw' });
    const events = await collectEvents(
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'echo', args: {} }), textTurn('done')]),
        tools: [echo],
        prompt: 'go',
        middlewares: [logging],
      }),
    );
    expect(completed).toEqual(['echo']);
    expect(results(events).map(text)).toEqual(['annotated']);
  });

  it('AgentStop with toolConcurrency 1: the calls after it are skipped, with a result that says so', async () => {
    const ran: string[] = [];
    const stopper = tool({
      name: 'stopper',
      description: 's',
      parameters: z.object({}),
      execute: () => {
        ran.push('stopper');
        throw new AgentStop('enough');
      },
    });
    const other = tool({
      name: 'other',
      description: 'o',
      parameters: z.object({}),
      execute: () => {
        ran.push('other');
        return 'ok';
      },
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'stopper', args: {} },
        { name: 'other', args: {} },
      ]),
    ]);
    const events = await collectEvents(
      runAgent({ model, tools: [stopper, other], prompt: 'go', toolConcurrency: 1 }),
    );
    expect(ran).toEqual(['stopper']);
    expect(results(events).map(text)).toEqual(['enough', 'Skipped because a tool stopped the run.']);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'stop-requested' });
  });

  it('aborts the signal of a tool cut off by unsubscribing, and starts nothing after', async () => {
    const signals: AbortSignal[] = [];
    const gate = new Subject<void>();
    const waits = tool({
      name: 'waits',
      description: 'w',
      parameters: z.object({}),
      execute: (_args, { signal, progress }) => {
        signals.push(signal);
        progress('waiting');
        return lastValueFrom(gate);
      },
    });
    const model = scriptedModel([
      toolCallTurn({ name: 'waits', args: {} }),
      toolCallTurn({ name: 'waits', args: {} }),
      textTurn('never asked'),
    ]);
    // Leaving synchronously inside next at the tool's start: the tool never runs.
    runAgent({ model, tools: [waits], prompt: 'go' })
      .pipe(takeWhile((e) => e.type !== 'tool-start', true))
      .subscribe();
    expect(signals).toEqual([]);
    // Leaving while it runs: its signal is aborted, and no model call follows.
    runAgent({ model, tools: [waits], prompt: 'go' })
      .pipe(takeWhile((e) => e.type !== 'tool-update', true))
      .subscribe();
    await Promise.resolve();
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
    gate.complete();
    await Promise.resolve();
    expect(model.calls).toBe(2);
  });
});

describe('approvals fail closed in a run', () => {
  const write = (needsApproval: boolean | ((args: unknown) => boolean)) =>
    tool({
      name: 'write',
      description: 'w',
      parameters: z.object({}),
      needsApproval,
      execute: () => 'written',
    });
  const run = (
    config: Partial<Parameters<typeof runAgent>[0]>,
    needsApproval: boolean | ((args: unknown) => boolean) = true,
  ) =>
    collectEvents(
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'write', args: {} }), textTurn('done')]),
        tools: [write(needsApproval)],
        prompt: 'go',
        ...config,
      }),
    );

  it.each([
    ['returns null', () => null],
    ['returns undefined', () => undefined],
    ['returns { approved: "false" }', () => ({ approved: 'false' })],
    [
      'throws',
      () => {
        throw new Error('approver down');
      },
    ],
  ])('refuses the call when the approver %s', async (_what, approver) => {
    const events = await run({ approver: approver as never });
    const [result] = results(events);
    expect(result?.isError).toBe(true);
    expect(events.some((e) => e.type === 'tool-end' && !e.isError)).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'agent-end' });
  });

  it('refuses the call when needsApproval throws, and runs it only on true', async () => {
    const refused = await run({ approver: () => true }, () => {
      throw new Error('policy broken');
    });
    expect(text(results(refused)[0] as ToolResultMessage)).toMatch(/needsApproval.*policy broken/);
    const approved = await run({ approver: () => ({ approved: true }) });
    expect(text(results(approved)[0] as ToolResultMessage)).toBe('written');
  });
});

describe('long runs', () => {
  it('runs 10,000 synchronous steps with a flat stack, each message in the transcript once', async () => {
    const steps = 10_000;
    const noop = tool({ name: 'noop', description: 'n', parameters: z.object({}), execute: () => 'ok' });
    const model = scriptedModel([
      ...Array.from({ length: steps - 1 }, () => toolCallTurn({ name: 'noop', args: {} })),
      textTurn('done'),
    ]);
    const events = await collectEvents(runAgent({ model, tools: [noop], prompt: 'go', maxSteps: steps }));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps });
    expect(end?.type === 'agent-end' && end.messages.length).toBe(1 + (steps - 1) * 2 + 1);
  });
});

describe('a run that cannot start', () => {
  it('unsubscribes the sources it attached when building its pipeline fails', async () => {
    const input$ = new Subject<string>();
    const failing = collectEvents(
      runAgent({
        model: scriptedModel([textTurn('x')]),
        prompt: 'go',
        pipeline: (turn$) => {
          turn$.pipe(steer(input$)); // attaches the source while the pipeline is built
          return 'not an observable' as never;
        },
      }),
    );
    await expect(failing).rejects.toThrow(/must return an Observable/);
    expect(input$.observed).toBe(false);
  });
});
