import { concat, defer, from, NEVER, Subject, takeUntil, throwError, timer, toArray } from 'rxjs';
import { assistantMessage, collectEvents, scriptedModel, textTurn, usage } from '@rxagent/testing';
import { AuthError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { userMessage } from '../messages/message-helpers.js';
import { withState } from './with-state.js';

// Hand-made runs: what withState makes of a run's events, whatever loop produced them.
const prompt = userMessage('go', 0);
const answer = assistantMessage([{ type: 'text', text: 'hi' }]);
const begin: AgentEvent[] = [
  { type: 'agent-start', runId: 'r' },
  { type: 'turn-start', step: 1 },
  { type: 'message-start', message: prompt },
  { type: 'message-end', message: prompt },
];
const finish: AgentEvent[] = [
  { type: 'message-start', message: answer },
  { type: 'message-end', message: answer },
  {
    type: 'agent-end',
    reason: 'completed',
    signal: { reason: 'completed', message: 'done' },
    messages: [prompt, answer],
    usage: usage(),
    steps: 1,
  },
];

describe('withState: how the run ended', () => {
  it('is done when the run completes after agent-end', () => {
    const { events$, state$ } = withState(from([...begin, ...finish]));
    events$.subscribe();
    expect(state$.value).toMatchObject({ phase: 'done', step: 1 });
  });

  it('is cancelled, not done, when the run is cut by takeUntil before agent-end', () => {
    const stop = new Subject<void>();
    const { events$, state$ } = withState(concat(from(begin), NEVER).pipe(takeUntil(stop)));
    const completed = jest.fn();
    events$.subscribe({ complete: completed });
    stop.next();
    expect(completed).toHaveBeenCalled();
    expect(state$.value).toMatchObject({ phase: 'cancelled', step: 1 });
  });

  it('gives a late events$ subscriber the typed error object itself', () => {
    const error = new AuthError('bad key');
    const { events$, state$ } = withState(
      concat(
        from(begin),
        throwError(() => error),
      ),
    );
    events$.subscribe({ error: () => undefined });
    const late: unknown[] = [];
    events$.subscribe({ error: (e: unknown) => late.push(e) });
    expect(late).toHaveLength(1);
    expect(late[0]).toBe(error);
    expect(late[0]).toBeInstanceOf(AuthError);
    expect(state$.value).toMatchObject({ phase: 'error', error: { name: 'AuthError', message: 'bad key' } });
  });

  it('does not start the run again for a subscriber that comes after it was cancelled', () => {
    let subscriptions = 0;
    const run$ = defer(() => {
      subscriptions++;
      return concat(from(begin), NEVER);
    });
    const { events$, state$ } = withState(run$);
    events$.subscribe().unsubscribe();
    expect(state$.value.phase).toBe('cancelled');
    const late = { next: jest.fn(), complete: jest.fn() };
    events$.subscribe(late);
    expect(late.next).not.toHaveBeenCalled();
    expect(late.complete).toHaveBeenCalled();
    expect(subscriptions).toBe(1);
  });

  it('gives a late state$ subscriber the terminal state, then complete', async () => {
    const { events$, state$ } = withState(from([...begin, ...finish]));
    events$.subscribe();
    expect((await state$.pipe(toArray()).toPromise())?.map((s) => s.phase)).toEqual(['done']);
  });
});

describe('withState: the transcript', () => {
  it('starts from the transcript the run starts from (agent-start messages)', () => {
    const prior = [userMessage('earlier', 0), answer];
    const start: AgentEvent = { type: 'agent-start', runId: 'r', messages: prior };
    const { events$, state$ } = withState(from([start, ...begin.slice(1), ...finish]));
    events$.subscribe();
    expect(state$.value.messages).toEqual([...prior, prompt, answer]);
  });

  it('keeps the prior transcript of runAgent({ messages }) (needs the loop that sends it on agent-start)', async () => {
    const prior = [userMessage('earlier', 0), answer];
    const { events$, state$ } = withState(
      runAgent({ model: scriptedModel([textTurn('again')]), messages: prior, prompt: 'more' }),
    );
    await collectEvents(events$);
    expect(state$.value.phase).toBe('done');
    expect(state$.value.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(state$.value.messages.slice(0, 2)).toEqual(prior);
  });

  it('reports a runAgent run cut by takeUntil as cancelled', async () => {
    const { events$, state$ } = withState(
      runAgent({ model: scriptedModel([textTurn('hi')], { latency: 50 }), prompt: 'x' }).pipe(
        takeUntil(timer(10)),
      ),
    );
    await collectEvents(events$);
    expect(state$.value).toMatchObject({ phase: 'cancelled', step: 1 });
  });
});
