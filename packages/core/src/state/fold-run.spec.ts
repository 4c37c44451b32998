import { BehaviorSubject, concat, from, NEVER, Subject, takeUntil, throwError } from 'rxjs';
import { assistantMessage, usage } from '@rxagent/testing';
import { AuthError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { userMessage } from '../messages/message-helpers.js';
import type { AgentMessage, AssistantMessage, ToolResultMessage } from '../messages/types.js';
import type { StopReason } from '../events/stop-signal.js';
import { AppendLog } from '../util/append-log.js';
import { initialAgentState, isTerminal, type AgentState } from './agent-state.js';
import { foldRun } from './fold-run.js';
import { reduceAgentState } from './reduce-agent-state.js';

// Hand-made runs: the fold is tested against event sequences, not against the loop.
const prompt = userMessage('go', 0);

function toolStep(step: number): AgentEvent[] {
  const id = `c${step}`;
  const call = assistantMessage([{ type: 'tool-call', id, name: 'echo', args: {} }], 'tool-calls');
  const result: ToolResultMessage = {
    role: 'tool',
    toolCallId: id,
    toolName: 'echo',
    content: [{ type: 'text', text: 'ok' }],
    isError: false,
    timestamp: step,
  };
  return [
    { type: 'turn-start', step },
    { type: 'message-start', message: call },
    { type: 'message-end', message: call },
    { type: 'tool-start', toolCallId: id, toolName: 'echo', args: {} },
    {
      type: 'tool-end',
      toolCallId: id,
      toolName: 'echo',
      args: {},
      result,
      isError: false,
      outcome: 'executed',
    },
    { type: 'message-start', message: result },
    { type: 'message-end', message: result },
  ];
}

function agentEnd(reason: StopReason, steps: number): AgentEvent {
  return {
    type: 'agent-end',
    reason,
    signal: { reason, message: reason },
    messages: [],
    usage: usage(),
    steps,
  };
}

const start = (messages?: readonly AgentMessage[]): AgentEvent[] => [
  messages ? { type: 'agent-start', runId: 'r', messages } : { type: 'agent-start', runId: 'r' },
  { type: 'message-start', message: prompt },
  { type: 'message-end', message: prompt },
];

/** Folds `run$` into a fresh state; returns the states it went through. */
function fold(run$: Parameters<ReturnType<typeof foldRun>>[0], initial = initialAgentState()) {
  const state = new BehaviorSubject<AgentState>(initial);
  const states: AgentState[] = [];
  state.subscribe((s) => states.push(s));
  const subscription = run$.pipe(foldRun(state, { now: () => 42 })).subscribe({ error: () => undefined });
  return { state, states, subscription };
}

const terminalStates = (states: AgentState[]) => states.filter((s) => isTerminal(s.phase));

describe('foldRun: terminal phases', () => {
  it('is done only when the run completes after agent-end', () => {
    const { state, states } = fold(from([...start(), ...toolStep(1), agentEnd('completed', 1)]));
    expect(state.value).toMatchObject({ phase: 'done', step: 1, stopReason: 'completed', isRunning: false });
    expect(terminalStates(states)).toHaveLength(1);
  });

  it('is cancelled when the run completes without agent-end (cut by takeUntil)', () => {
    const stop = new Subject<void>();
    const events = new Subject<AgentEvent>();
    const { state } = fold(events.pipe(takeUntil(stop)));
    for (const e of [...start(), ...toolStep(1), ...toolStep(2).slice(0, 2)]) events.next(e);
    stop.next();
    expect(state.value).toMatchObject({ phase: 'cancelled', step: 2 });
  });

  it('is cancelled when agent-end says user-requested', () => {
    const { state } = fold(from([...start(), agentEnd('user-requested', 0)]));
    expect(state.value.phase).toBe('cancelled');
  });

  it('is cancelled on unsubscribe, closing the open call and keeping the partial answer marked aborted', () => {
    const partial = assistantMessage([{ type: 'text', text: 'Hal' }]);
    const open = toolStep(2).slice(0, 4); // the call has started, no result
    const { state, subscription } = fold(concat(from([...start(), ...toolStep(1), ...open]), NEVER));
    expect(state.value.phase).toBe('tool-executing');
    subscription.unsubscribe();
    expect(state.value).toMatchObject({ phase: 'cancelled', step: 2, pendingToolCalls: [] });
    expect(state.value.messages.at(-1)).toMatchObject({
      role: 'tool',
      toolCallId: 'c2',
      isError: true,
      timestamp: 42,
    });

    const streaming = fold(
      concat(
        from<AgentEvent[]>([
          ...start(),
          { type: 'turn-start', step: 1 },
          { type: 'message-start', message: partial },
          { type: 'message-update', message: partial, delta: { kind: 'text', text: 'Hal', index: 0 } },
        ]),
        NEVER,
      ),
    );
    streaming.subscription.unsubscribe();
    expect(streaming.state.value.messages.at(-1)).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
  });

  it('drops the partial answer on a cancel when dropPartial says so (a silent abort)', () => {
    const partial: AssistantMessage = assistantMessage([{ type: 'text', text: 'Hal' }]);
    const state = new BehaviorSubject(initialAgentState());
    const events: AgentEvent[] = [
      ...start(),
      { type: 'turn-start', step: 1 },
      { type: 'message-start', message: partial },
    ];
    concat(from(events), NEVER)
      .pipe(foldRun(state, { dropPartial: () => true }))
      .subscribe()
      .unsubscribe();
    expect(state.value.phase).toBe('cancelled');
    expect(state.value.messages).toEqual([prompt]);
  });

  it('is error on error, with the serialized error; the first terminal phase wins', () => {
    const { state, states } = fold(
      concat(
        from(start()),
        throwError(() => new AuthError('bad key')),
      ),
    );
    expect(state.value).toMatchObject({ phase: 'error', error: { name: 'AuthError', message: 'bad key' } });
    expect(terminalStates(states)).toHaveLength(1);
  });

  it('writes the terminal state before the completion goes downstream, and each event before it goes on', () => {
    const state = new BehaviorSubject(initialAgentState());
    const seen: string[] = [];
    from([...start(), ...toolStep(1), agentEnd('completed', 1)])
      .pipe(foldRun(state))
      .subscribe({
        next: (e) => e.type === 'tool-start' && seen.push(state.value.phase),
        complete: () => seen.push(state.value.phase),
      });
    expect(seen).toEqual(['tool-executing', 'done']);
  });
});

describe('foldRun: the transcript', () => {
  it('starts from the transcript agent-start carries', () => {
    const prior = [userMessage('earlier', 0), assistantMessage([{ type: 'text', text: 'hi' }])];
    const { state } = fold(from([...start(prior), agentEnd('completed', 0)]));
    expect(state.value.messages).toEqual([...prior, prompt]);
  });

  it('folds a 10,000-step run appending each message in O(1): one copy in all, older views unchanged', () => {
    // The only ways a transcript gets copied: AppendLog.of, or an append that forks.
    const of = jest.spyOn(AppendLog, 'of');
    const append = jest.spyOn(AppendLog.prototype, 'append');
    const steps = 10_000;
    const state = new BehaviorSubject(initialAgentState([userMessage('prior', 0)]));
    const views: (readonly AgentMessage[])[] = [];
    const events: AgentEvent[] = [...start()];
    for (let k = 1; k <= steps; k++) events.push(...toolStep(k));
    events.push(agentEnd('completed', steps));
    from(events)
      .pipe(foldRun(state))
      .subscribe((e) => e.type === 'turn-start' && views.push(state.value.messages));
    expect(state.value.phase).toBe('done');
    expect(state.value.messages).toHaveLength(2 + 2 * steps);
    expect(of).toHaveBeenCalledTimes(1); // the prior plain array, once
    const logs = append.mock.results.map((r) => r.value as AppendLog<AgentMessage>);
    expect(logs).toHaveLength(1 + 2 * steps);
    const last = logs.at(-1) as AppendLog<AgentMessage>;
    expect(logs.every((log) => log.sharesStoreWith(last))).toBe(true); // no append forked
    // The view of step k still has the length it had then.
    views.forEach((view, i) => {
      if (view.length !== 2 + 2 * i) throw new Error(`step ${i + 1}: ${view.length} messages`);
    });
    expect(views[1]?.[3]).toBe(state.value.messages[3]);
    of.mockRestore();
    append.mockRestore();
  });

  it('leaves an older state as it was when a newer one is folded on (the reducer stays pure)', () => {
    let s = reduceAgentState(initialAgentState(), start()[0] as AgentEvent);
    s = reduceAgentState(s, { type: 'message-end', message: prompt });
    const before = s;
    const after = toolStep(1).reduce(reduceAgentState, s);
    expect(before.messages).toEqual([prompt]);
    expect(after.messages).toHaveLength(3);
  });
});
