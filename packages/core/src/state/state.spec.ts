import { z } from 'zod';
import { defer, map, Observable, of, Subject, takeWhile, throwError, toArray } from 'rxjs';
import { collectEvents, scriptedModel, textTurn, toolCallTurn, usage } from '@rxagent/testing';
import { AuthError } from '../errors/provider-errors.js';
import type { ModelEvent } from '../model/model-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { AssistantMessage } from '../messages/types.js';
import { tool } from '../tools/tool.js';
import { initialAgentState, isTerminal, type AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { selectPendingTools, selectPhase, selectUsage } from './selectors.js';
import { terminate } from './terminate.js';
import { withState } from './with-state.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });

describe('reduceAgentState phases', () => {
  it('goes starting → llm-in-flight(1) → step-finished(1) → tool-executing(1) → llm-in-flight(2) → step-finished(2) → idle(2) → done(2)', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'echo' }), textTurn('done')]);
    const { events$, state$ } = withState(runAgent({ model, tools: [echo], prompt: 'go' }));
    const seen: string[] = [];
    state$.subscribe((s) => {
      const label = `${s.phase}(${s.step})`;
      if (seen.at(-1) !== label) seen.push(label);
    });
    await collectEvents(events$);
    expect(seen).toEqual([
      'starting(0)',
      'llm-in-flight(1)',
      'step-finished(1)',
      'tool-executing(1)',
      'llm-in-flight(2)',
      'step-finished(2)',
      'idle(2)',
      'done(2)',
    ]);
  });

  it('returns the same object for events that change nothing', () => {
    const state = initialAgentState();
    expect(reduceAgentState(state, { type: 'warning', message: 'x' })).toBe(state);
    expect(
      reduceAgentState(state, {
        type: 'compaction',
        strategy: 's',
        tokensBefore: 2,
        tokensAfter: 1,
        summarized: 1,
      }),
    ).toBe(state);
  });

  it('tracks pending tools and approvals', () => {
    let s = initialAgentState();
    s = reduceAgentState(s, { type: 'tool-start', toolCallId: 'a', toolName: 'bash', args: { c: 1 } });
    s = reduceAgentState(s, { type: 'approval-request', toolCallId: 'a', toolName: 'bash', args: { c: 1 } });
    expect(s.pendingToolCalls).toEqual(['a']);
    expect(s.pendingApprovals).toEqual([{ toolCallId: 'a', toolName: 'bash', args: { c: 1 } }]);
    s = reduceAgentState(s, { type: 'approval-end', toolCallId: 'a', toolName: 'bash', approved: true });
    s = reduceAgentState(s, {
      type: 'tool-update',
      toolCallId: 'a',
      toolName: 'bash',
      kind: 'progress',
      progress: 50,
    });
    expect(s.activeTools).toEqual([{ toolCallId: 'a', toolName: 'bash', args: { c: 1 }, progress: 50 }]);
    s = reduceAgentState(s, {
      type: 'tool-end',
      toolCallId: 'a',
      toolName: 'bash',
      args: {},
      result: { content: [], isError: false },
      isError: false,
      outcome: 'executed',
    });
    expect(s.pendingApprovals).toEqual([]);
    expect(s.pendingToolCalls).toEqual([]);
  });
});

describe('terminal phases are sticky', () => {
  const base: AgentState = { ...initialAgentState(), phase: 'tool-executing', step: 3 };

  it('keeps the first terminal phase and the step', () => {
    const done = terminate(base, 'done');
    expect(done).toMatchObject({ phase: 'done', step: 3 });
    expect(terminate(done, 'cancelled')).toBe(done);
    expect(terminate(done, 'error', new Error('late'))).toBe(done);
    expect(isTerminal('done') && isTerminal('cancelled') && isTerminal('error')).toBe(true);
    expect(isTerminal('idle')).toBe(false);
  });

  it('complete → done', async () => {
    const { events$, state$ } = withState(runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'x' }));
    await collectEvents(events$);
    expect(state$.value).toMatchObject({ phase: 'done', step: 1, stopReason: 'completed', isRunning: false });
  });

  it('unsubscribe → cancelled', () => {
    const { events$, state$ } = withState(
      runAgent({ model: scriptedModel([textTurn('hi')], { latency: 1000 }), prompt: 'x' }),
    );
    const sub = events$.subscribe();
    expect(state$.value.phase).toBe('llm-in-flight');
    sub.unsubscribe();
    expect(state$.value).toMatchObject({ phase: 'cancelled', step: 1 });
  });

  it('error → error, with the serialized error', async () => {
    const failing = { provider: 'x', modelId: 'y', stream: () => throwError(() => new AuthError('bad key')) };
    const { events$, state$ } = withState(runAgent({ model: failing, prompt: 'x' }));
    await expect(collectEvents(events$)).rejects.toThrow('bad key');
    expect(state$.value).toMatchObject({
      phase: 'error',
      step: 1,
      error: { name: 'AuthError', message: 'bad key' },
    });
  });
});

describe('withState', () => {
  it('shares one subscription of the run between events$ subscribers; state$ only watches', async () => {
    let subscriptions = 0;
    const run$ = defer(() => {
      subscriptions++;
      return runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'x' });
    });
    const { events$, state$ } = withState(run$);
    const states = state$.pipe(toArray()).toPromise();
    expect(subscriptions).toBe(0);
    const first = events$.pipe(toArray()).toPromise();
    const second = events$.pipe(toArray()).toPromise();
    expect(subscriptions).toBe(1);
    expect((await states)?.map((s) => s.phase)).toContain('done');
    expect((await first)?.at(-1)?.type).toBe('agent-end');
    expect(await second).toEqual([]); // a synchronous run had ended before the second subscriber came
  });

  it('folds each event before delivering it, so state$.value is current in handlers', async () => {
    const { events$, state$ } = withState(
      runAgent({ model: scriptedModel([textTurn('hello')]), prompt: 'x' }),
    );
    const seen: string[] = [];
    events$.subscribe((e) => {
      if (e.type === 'message-end' && e.message.role === 'assistant')
        seen.push(String(state$.value.messages.length));
    });
    await new Promise((r) => setImmediate(r));
    expect(seen).toEqual(['2']);
  });

  it('gives late subscribers the final state', async () => {
    const { events$, state$ } = withState(runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'x' }));
    await collectEvents(events$);
    const late = await state$.pipe(toArray()).toPromise();
    expect(late?.map((s) => s.phase)).toEqual(['done']);
  });

  it('stops a synchronous run when the last subscriber leaves during emission', () => {
    const model = scriptedModel([
      toolCallTurn({ name: 'echo' }),
      toolCallTurn({ name: 'echo' }),
      textTurn('x'),
    ]);
    const { events$, state$ } = withState(runAgent({ model, tools: [echo], prompt: 'go' }));
    events$.pipe(takeWhile((e) => e.type !== 'turn-end', true)).subscribe();
    expect(model.calls).toBe(1);
    expect(state$.value.phase).toBe('cancelled');
  });
});

describe('selectors emit on change only', () => {
  it('selectPhase, selectUsage and selectPendingTools skip unchanged values', async () => {
    const states = new Subject<AgentState>();
    const phases$ = states.pipe(selectPhase(), toArray()).toPromise();
    const usages$ = states.pipe(selectUsage(), toArray()).toPromise();
    const pending$ = states.pipe(selectPendingTools(), toArray()).toPromise();
    let s = initialAgentState();
    states.next(s);
    s = reduceAgentState(s, { type: 'warning', message: 'w' });
    states.next(s);
    s = reduceAgentState(s, { type: 'turn-start', step: 1 });
    states.next(s);
    s = reduceAgentState(s, { type: 'turn-start', step: 1 });
    states.next(s);
    states.complete();
    expect(await phases$).toEqual(['starting', 'llm-in-flight']);
    expect(await usages$).toHaveLength(1);
    expect(await pending$).toHaveLength(1);
  });

  it('selectPendingTools skips a new array with the same ids (the fold makes one on agent-start and tool-end)', async () => {
    const states = new Subject<AgentState>();
    const pending$ = states.pipe(selectPendingTools(), toArray()).toPromise();
    let s = initialAgentState();
    const fold = (event: Parameters<typeof reduceAgentState>[1]) =>
      states.next((s = reduceAgentState(s, event)));
    states.next(s);
    fold({ type: 'agent-start', runId: 'r1' });
    fold({ type: 'turn-start', step: 1 });
    fold({ type: 'tool-start', toolCallId: 'a', toolName: 'echo', args: {} });
    fold({ type: 'tool-start', toolCallId: 'b', toolName: 'echo', args: {} });
    fold({
      type: 'tool-end',
      toolCallId: 'a',
      toolName: 'echo',
      args: {},
      result: { content: [], isError: false },
      isError: false,
      outcome: 'executed',
    });
    fold({
      type: 'tool-end',
      toolCallId: 'b',
      toolName: 'echo',
      args: {},
      result: { content: [], isError: false },
      isError: false,
      outcome: 'executed',
    });
    fold({ type: 'agent-start', runId: 'r2' });
    states.complete();
    expect(await pending$).toEqual([[], ['a'], ['a', 'b'], ['b'], []]);
  });
});

describe('folding a long streamed message stays linear', () => {
  it('never copies the transcript per delta: 100,000 deltas over a 10,000-message transcript', () => {
    const prior = Array.from({ length: 10_000 }, (_, i) => ({
      role: 'user' as const,
      content: `m${i}`,
      timestamp: i,
    }));
    let state = reduceAgentState(initialAgentState(prior), { type: 'turn-start', step: 1 });
    const messages = state.messages;
    let partial: AssistantMessage = {
      role: 'assistant',
      content: [{ type: 'text', text: '' }],
      stopReason: 'stop',
      usage: usage(),
      provider: 't',
      model: 't',
      timestamp: 0,
    };
    state = reduceAgentState(state, { type: 'message-start', message: partial });
    for (let i = 0; i < 100_000; i++) {
      partial = {
        ...partial,
        content: [{ type: 'text', text: `${(partial.content[0] as { text: string }).text}x` }],
      };
      state = reduceAgentState(state, {
        type: 'message-update',
        message: partial,
        delta: { kind: 'text', text: 'x', index: 0 },
      });
      // The transcript array is the very same object after every delta: nothing was copied.
      if (state.messages !== messages) throw new Error(`transcript copied at delta ${i}`);
    }
    expect(state.streamingMessage).toBe(partial);
    expect((state.streamingMessage?.content[0] as { text: string }).text).toHaveLength(100_000);
  });

  it('builds the partial message from deltas without growing per-delta work with the message', async () => {
    // 100,000 deltas through a real run: each update's content array holds one part (O(parts), not O(deltas)).
    const deltas = 100_000;
    const model = {
      provider: 't',
      modelId: 't',
      stream: () =>
        new Observable<ModelEvent>((s) => {
          for (let i = 0; i < deltas; i++) s.next({ type: 'text-delta', index: 0, text: 'x' });
          s.next({
            type: 'finish',
            reason: 'stop',
            message: {
              role: 'assistant',
              content: [{ type: 'text', text: 'x'.repeat(deltas) }],
              stopReason: 'stop',
              usage: usage(),
              provider: 't',
              model: 't',
              timestamp: 0,
            },
          });
          s.complete();
        }),
    };
    let updates = 0;
    let maxParts = 0;
    const { events$, state$ } = withState(runAgent({ model, prompt: 'go' }));
    events$
      .pipe(map((e) => (e.type === 'message-update' ? e.message.content.length : -1)))
      .subscribe((parts) => {
        if (parts < 0) return;
        updates++;
        maxParts = Math.max(maxParts, parts);
      });
    await of(null).toPromise();
    expect(updates).toBe(deltas);
    expect(maxParts).toBe(1);
    expect(state$.value.phase).toBe('done');
  });
});
