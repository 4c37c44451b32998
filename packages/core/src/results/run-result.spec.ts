import { asyncScheduler, NEVER, Observable, take, throwError, type Subscriber } from 'rxjs';
import { z } from 'zod';
import { RateLimitError } from '../errors/provider-errors.js';
import { assistantMessage, scriptedModel, textTurn, toolCallTurn, usage } from '@rxagent/testing';
import { lastValueFrom } from 'rxjs';
import { withState } from '../state/with-state.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from '../tools/tool.js';
import { eachEvent } from './each-event.js';
import { EventBufferOverflowError, NoRunResultError } from './result-errors.js';
import { runResult, toResult } from './run-result.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });

function twoTurnRun() {
  const model = scriptedModel([
    toolCallTurn({ name: 'echo' }, { usage: { inputTokens: 10, outputTokens: 2 } }),
    textTurn('All done.', { usage: { inputTokens: 20, outputTokens: 3 } }),
  ]);
  return runAgent({ model, tools: [echo], prompt: 'go', scheduler: asyncScheduler });
}

describe('runResult and toResult', () => {
  it('gives the final text, the messages, the total usage, every step and the stop reason', async () => {
    const result = await runResult(twoTurnRun());
    expect(result.text).toBe('All done.');
    expect(result.reason).toBe('completed');
    expect(result.signal.reason).toBe('completed');
    expect(result.steps.map((s) => s.finishReason)).toEqual(['tool-calls', 'stop']);
    expect(result.usage).toMatchObject(usage({ inputTokens: 30, outputTokens: 5 }));
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(result.output).toBeUndefined();
  });

  it('reads a structured output from agent-end when the run carries one', async () => {
    const end = {
      type: 'agent-end',
      reason: 'completed',
      signal: { reason: 'completed', message: 'done' },
      messages: [],
      usage: usage(),
      steps: 0,
      output: { answer: 42 },
    } as AgentEvent;
    const result = await runResult<{ answer: number }>(
      new Observable<AgentEvent>((s) => {
        s.next(end);
        s.complete();
      }),
    );
    expect(result.output).toEqual({ answer: 42 });
    expect(result.text).toBe('');
  });

  it("types the output from the run's schema, and gives it", async () => {
    const model = scriptedModel([toolCallTurn({ name: 'final_answer', args: { answer: 42 } })]);
    const result = await runResult(
      runAgent({
        model,
        prompt: 'the answer?',
        output: z.object({ answer: z.number() }),
        scheduler: asyncScheduler,
      }),
    );
    // Type-checked by `pnpm typecheck`: before the fix, output was `unknown` and this failed (TS2339).
    const answer: number | undefined = result.output?.answer;
    // @ts-expect-error -- the schema has no field "missing"
    expect(result.output?.missing).toBeUndefined();
    expect(answer).toBe(42);
  });

  it('types the output from the run through toResult too', (done) => {
    const model = scriptedModel([toolCallTurn({ name: 'final_answer', args: { city: 'Paris' } })]);
    runAgent({ model, prompt: 'where?', output: z.object({ city: z.string() }), scheduler: asyncScheduler })
      .pipe(toResult())
      .subscribe((result) => {
        const city: string | undefined = result.output?.city; // a type error before the fix (unknown)
        expect(city).toBe('Paris');
        done();
      });
  });

  it('emits one result when the run completes, from the operator', (done) => {
    const results: unknown[] = [];
    twoTurnRun()
      .pipe(toResult())
      .subscribe({
        next: (r) => results.push(r.text),
        complete: () => {
          expect(results).toEqual(['All done.']);
          done();
        },
      });
  });

  it('rejects with NoRunResultError when the run was cut before agent-end', async () => {
    await expect(runResult(twoTurnRun().pipe(take(2)))).rejects.toBeInstanceOf(NoRunResultError);
  });

  it('counts what the state fold counts: a sub-run spending inside a tool call', async () => {
    // A tool that runs a sub-run of its own and puts the sub-run's events on the run's stream.
    const delegate = tool({
      name: 'delegate',
      description: 'delegate',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        const sub = { agent: 'helper', runId: 'sub-1' };
        ctx.emitSubrun?.(sub, { type: 'agent-start', runId: 'sub-1' });
        ctx.emitSubrun?.(sub, {
          type: 'message-end',
          message: assistantMessage([{ type: 'text', text: 'found it' }], 'stop', {
            usage: { inputTokens: 700, outputTokens: 50 },
          }),
        });
        return 'found it';
      },
    });
    const config = () => ({
      model: scriptedModel([
        toolCallTurn({ name: 'delegate' }, { usage: { inputTokens: 10, outputTokens: 2 } }),
        textTurn('Done.', { usage: { inputTokens: 20, outputTokens: 3 } }),
      ]),
      tools: [delegate],
      prompt: 'go',
      scheduler: asyncScheduler,
    });
    const result = await runResult(runAgent(config()));
    expect(result.usage).toEqual(usage({ inputTokens: 730, outputTokens: 55 }));

    const { events$, state$ } = withState(runAgent(config()));
    await lastValueFrom(events$);
    expect(result.usage).toEqual(state$.value.usage);
  });

  it('takes the usage from the state fold, not from what agent-end reports', async () => {
    // A producer whose agent-end leaves out the context summary call (a foreign or older one).
    const answer = assistantMessage([{ type: 'text', text: 'Hi' }], 'stop', {
      usage: { inputTokens: 100, outputTokens: 10 },
    });
    const events: AgentEvent[] = [
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      { type: 'summary-start', model: 'small', messages: 12, incremental: false },
      {
        type: 'compaction',
        strategy: 'summary',
        tokensBefore: 9000,
        tokensAfter: 900,
        summarized: 12,
        usage: usage({ inputTokens: 2000, outputTokens: 300 }),
      },
      { type: 'message-end', message: answer },
      {
        type: 'agent-end',
        reason: 'completed',
        signal: { reason: 'completed', message: 'done' },
        messages: [answer],
        usage: answer.usage,
        steps: 1,
      },
    ];
    const result = await runResult(
      new Observable<AgentEvent>((s) => {
        events.forEach((e) => s.next(e));
        s.complete();
      }),
    );
    expect(result.usage).toEqual(usage({ inputTokens: 2100, outputTokens: 310 }));
  });

  it("rejects with the run's own error", async () => {
    const error = new RateLimitError('slow down');
    await expect(runResult(throwError(() => error))).rejects.toBe(error);
  });
});

describe('eachEvent', () => {
  it('iterates every event of a run, in order, then ends', async () => {
    const types: string[] = [];
    for await (const event of eachEvent(twoTurnRun())) types.push(event.type);
    expect(types[0]).toBe('agent-start');
    expect(types[types.length - 1]).toBe('agent-end');
    expect(types.filter((t) => t === 'turn-start')).toHaveLength(2);
  });

  it('does not start the run before the first next()', () => {
    let subscribed = 0;
    const run$ = new Observable<AgentEvent>(() => {
      subscribed++;
    });
    const iterator = eachEvent(run$);
    expect(subscribed).toBe(0);
    void iterator.next();
    expect(subscribed).toBe(1);
    void iterator.return?.();
  });

  it('cancels the run when the loop breaks', async () => {
    let torn = false;
    const run$ = new Observable<AgentEvent>((s) => {
      s.next({ type: 'agent-start', runId: 'r' });
      s.next({ type: 'turn-start', step: 1 });
      return () => (torn = true);
    });
    for await (const event of eachEvent(run$)) {
      if (event.type === 'turn-start') break;
    }
    expect(torn).toBe(true);
  });

  it('throws the run error from the loop after the events before it', async () => {
    const error = new RateLimitError('slow down');
    const seen: string[] = [];
    const run$ = new Observable<AgentEvent>((s) => {
      s.next({ type: 'agent-start', runId: 'r' });
      s.error(error);
    });
    await expect(
      (async () => {
        for await (const event of eachEvent(run$)) seen.push(event.type);
      })(),
    ).rejects.toBe(error);
    expect(seen).toEqual(['agent-start']);
  });

  it('cancels the run with EventBufferOverflowError when the buffer is full', async () => {
    let torn = false;
    let emitter: Subscriber<AgentEvent> | undefined;
    const run$ = new Observable<AgentEvent>((s) => {
      emitter = s;
      return () => (torn = true);
    });
    const iterator = eachEvent(run$, { bufferSize: 2 });
    const first = iterator.next();
    for (let step = 1; step <= 4; step++) emitter?.next({ type: 'turn-start', step });
    expect(await first).toEqual({ value: { type: 'turn-start', step: 1 }, done: false });
    expect(torn).toBe(true);
    expect(await iterator.next()).toEqual({ value: { type: 'turn-start', step: 2 }, done: false });
    expect(await iterator.next()).toEqual({ value: { type: 'turn-start', step: 3 }, done: false });
    await expect(iterator.next()).rejects.toBeInstanceOf(EventBufferOverflowError);
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('ends at once when returned while waiting', async () => {
    const iterator = eachEvent(NEVER);
    const pending = iterator.next();
    await iterator.return?.();
    expect(await pending).toEqual({ value: undefined, done: true });
  });
});
