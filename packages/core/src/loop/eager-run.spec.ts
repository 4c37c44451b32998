import { z } from 'zod';
import { filter, map, tap } from 'rxjs';
import {
  assistantMessage,
  createTestScheduler,
  finishEvent,
  marbleModel,
  textTurn,
  virtualTool,
} from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import { RateLimitError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ModelEvent } from '../model/model-event.js';
import type { ToolCallPart } from '../messages/types.js';
import type { AgentState, Phase } from '../state/agent-state.js';
import { withState } from '../state/with-state.js';
import { tool } from '../tools/tool.js';
import { runAgent } from './run-agent.js';

// Eager tools in whole runs: the timing the feature is for, configuration refusals, and the
// state fold (phases and pending calls) over a tool-start that comes before message-end.

const call = (id: string): ToolCallPart => ({ type: 'tool-call', id, name: 'lookup', args: { q: id } });
const end = (c: ToolCallPart, index: number): ModelEvent => ({ type: 'toolcall-end', index, call: c });

/** The model of the step: streams for 1,000 ms, its three calls complete at 200, 400 and 600 ms. */
function streamingModel(cold: Parameters<typeof marbleModel>[0]) {
  const [a, b, c] = [call('a'), call('b'), call('c')];
  const f = finishEvent(assistantMessage([a, b, c], 'tool-calls'));
  const answer = textTurn('Done.');
  const values = Object.fromEntries(answer.events.map((e, i) => [`${i}`, e]));
  return marbleModel(
    cold,
    [
      {
        marble: '200ms x 199ms y 199ms z 399ms (f|)',
        values: { x: end(a, 0), y: end(b, 1), z: end(c, 2), f },
      },
      { marble: `(${Object.keys(values).join('')}|)`, values },
    ],
    {},
  );
}

const lookup = (eager: boolean) =>
  virtualTool({
    name: 'lookup',
    description: 'A read-only lookup',
    parameters: z.object({ q: z.string() }),
    latency: '300ms',
    eager,
    execute: ({ q }) => `found ${q}`,
  });

/** When the step's tools started, when its message ended and when the run ended, in virtual ms. */
function measure(eager: boolean, toolConcurrency?: number) {
  const scheduler = createTestScheduler();
  const starts: number[] = [];
  let messageEndAt = -1;
  let endedAt = -1;
  scheduler.run(({ cold, flush }) => {
    runAgent({
      model: streamingModel(cold),
      prompt: 'look these up',
      tools: [lookup(eager)],
      ...(toolConcurrency ? { toolConcurrency } : {}),
    })
      .pipe(
        tap((e) => {
          if (e.type === 'tool-start') starts.push(scheduler.now());
          if (e.type === 'message-end' && e.message.role === 'assistant' && messageEndAt < 0)
            messageEndAt = scheduler.now();
          if (e.type === 'agent-end') endedAt = scheduler.now();
        }),
      )
      .subscribe();
    flush();
  });
  return { starts, messageEndAt, endedAt };
}

describe('eager tools in a run', () => {
  it('a 1,000 ms model step with three eager 300 ms tools (done at 200/400/600 ms) ends at 1,000 ms (≤ 1,350)', () => {
    const result = measure(true);
    expect(result).toEqual({ starts: [200, 400, 600], messageEndAt: 1000, endedAt: 1000 });
    expect(result.endedAt).toBeLessThanOrEqual(1350);
  });

  it('without eager the same step ends at 1,300 ms (tools in parallel) or 1,900 ms (one at a time)', () => {
    expect(measure(false)).toEqual({ starts: [1000, 1000, 1000], messageEndAt: 1000, endedAt: 1300 });
    expect(measure(false, 1)).toEqual({ starts: [1000, 1300, 1600], messageEndAt: 1000, endedAt: 1900 });
    // Eager calls start at most toolConcurrency at a time, in call order: with 1, only the first.
    expect(measure(true, 1)).toEqual({ starts: [200, 1000, 1300], messageEndAt: 1000, endedAt: 1600 });
  });

  it('the state fold: phase stays llm-in-flight while eager calls start, then tool-executing until they end', () => {
    const seen: { at: number; type: string; phase: Phase; pending: number }[] = [];
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, flush }) => {
      const { events$, state$ } = withState(
        runAgent({ model: streamingModel(cold), prompt: 'go', tools: [lookup(true)] }),
      );
      let state: AgentState = state$.value;
      state$.subscribe((s) => (state = s));
      events$
        .pipe(
          filter((e) => e.type === 'tool-start' || e.type === 'tool-end' || e.type === 'message-end'),
          map((e: AgentEvent) => ({
            at: scheduler.now(),
            type: e.type === 'message-end' ? `message-end:${e.message.role}` : e.type,
          })),
        )
        .subscribe(({ at, type }) =>
          seen.push({ at, type, phase: state.phase, pending: state.pendingToolCalls.length }),
        );
      flush();
    });
    expect(seen.slice(0, 7)).toEqual([
      { at: 0, type: 'message-end:user', phase: 'llm-in-flight', pending: 0 },
      { at: 200, type: 'tool-start', phase: 'llm-in-flight', pending: 1 },
      { at: 400, type: 'tool-start', phase: 'llm-in-flight', pending: 2 },
      { at: 600, type: 'tool-start', phase: 'llm-in-flight', pending: 3 },
      { at: 1000, type: 'message-end:assistant', phase: 'tool-executing', pending: 3 },
      { at: 1000, type: 'tool-end', phase: 'tool-executing', pending: 2 },
      { at: 1000, type: 'tool-end', phase: 'tool-executing', pending: 1 },
    ]);
  });

  it('the state fold drops the calls of a failed attempt at its retry (they never get a tool-end)', () => {
    const states: AgentState[] = [];
    createTestScheduler().run(({ cold, flush }) => {
      const a = call('a');
      const model = marbleModel(cold, [
        {
          marble: 'x 9ms #',
          values: { x: end(a, 0) },
          error: new RateLimitError('slow down', { retryAfterMs: 5 }),
        },
        { marble: '(f|)', values: { f: finishEvent(assistantMessage([{ type: 'text', text: 'No.' }])) } },
      ]);
      const { events$, state$ } = withState(runAgent({ model, prompt: 'go', tools: [lookup(true)] }));
      events$.pipe(filter((e) => e.type === 'tool-start' || e.type === 'retry')).subscribe(() => {
        states.push(state$.value);
      });
      let last!: AgentState;
      state$.subscribe((s) => (last = s));
      flush();
      states.push(last);
    });
    expect(states.map((s) => [s.phase, s.pendingToolCalls, s.activeTools.length])).toEqual([
      ['llm-in-flight', ['a'], 1],
      ['llm-in-flight', [], 0],
      ['done', [], 0],
    ]);
  });

  it('refuses an eager tool that needs approval or may not run beside others, with an AgentConfigError', () => {
    const base = { name: 'lookup', description: 'x', parameters: z.object({}), execute: () => 'ok' };
    expect(() => tool({ ...base, eager: true, needsApproval: true })).toThrow(AgentConfigError);
    expect(() => tool({ ...base, eager: true, needsApproval: () => false })).toThrow(/needs approval/);
    expect(() => tool({ ...base, eager: true, concurrencySafe: false })).toThrow(/not concurrencySafe/);
    expect(() => tool({ ...base, eager: 'yes' as unknown as boolean })).toThrow(
      /eager must be true or false/,
    );
    expect(() => tool({ ...base, eager: true, concurrencySafe: true })).not.toThrow();
    const eagerTool = tool({ ...base, eager: true });
    const model = { provider: 'x', modelId: 'y', stream: () => ({}) as never };
    let error: unknown;
    runAgent({ model, prompt: 'hi', tools: [eagerTool], approvalRequired: ['lookup'] }).subscribe({
      error: (e: unknown) => (error = e),
    });
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/"lookup" is eager but listed in approvalRequired/);
    // A plain object (not made with tool()) is checked when the run starts.
    error = undefined;
    runAgent({
      model,
      prompt: 'hi',
      tools: [{ ...base, eager: true, needsApproval: true }],
    }).subscribe({
      error: (e: unknown) => (error = e),
    });
    expect((error as Error).message).toMatch(/"lookup" is eager but needs approval/);
  });
});
