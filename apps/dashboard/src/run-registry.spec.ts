import { BehaviorSubject, Subject } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import {
  initialAgentState,
  reduceAgentState,
  StateObservable,
  type AgentEvent,
  type AgentState,
} from '@rxagent/core';
import { assistantMessage } from '@rxagent/testing';
import { RunRegistry, type DashboardAgent, type DashboardUpdate } from './run-registry.js';

/** An agent whose events the test emits by hand (state folded like `Agent` does). */
function fakeAgent() {
  const state = new BehaviorSubject<AgentState>(initialAgentState());
  const events = new Subject<AgentEvent>();
  const agent: DashboardAgent = {
    state$: new StateObservable<AgentState>(
      (subscriber) => state.subscribe(subscriber),
      () => state.value,
    ),
    events$: events.asObservable(),
    approve: jest.fn(() => true),
    reject: jest.fn(() => true),
    abort: jest.fn(),
  };
  const emit = (event: AgentEvent) => {
    state.next(reduceAgentState(state.value, event));
    events.next(event);
  };
  return { agent, emit };
}

function textUpdate(text: string): AgentEvent {
  return {
    type: 'message-update',
    message: assistantMessage([{ type: 'text', text }]),
    delta: { kind: 'text', text, index: 0 },
  };
}

function newScheduler() {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('RunRegistry', () => {
  it('pushes a snapshot when a run is added, and lists it', () => {
    const registry = new RunRegistry({ scheduler: newScheduler() });
    const updates: DashboardUpdate[] = [];
    registry.updates$.subscribe((u) => updates.push(u));
    const { agent } = fakeAgent();
    const id = registry.add(agent, 'chat #1');
    expect(id).toBe('run-1');
    expect(registry.add(fakeAgent().agent, 'chat #2')).toBe('run-2');
    expect(updates[0]).toMatchObject({
      type: 'run',
      run: { id: 'run-1', label: 'chat #1', phase: 'starting' },
    });
    expect(registry.snapshots().map((s) => s.id)).toEqual(['run-1', 'run-2']);
    expect(registry.get(id)?.agent).toBe(agent);
  });

  it('coalesces streaming updates within the window and sends the latest', () => {
    const scheduler = newScheduler();
    scheduler.run(({ cold }) => {
      const registry = new RunRegistry({ scheduler, throttleMs: 50 });
      const { agent, emit } = fakeAgent();
      const seen: string[] = [];
      registry.updates$.subscribe(
        (u) => u.type === 'run' && seen.push(`${u.run.phase}:${u.run.streamingText}`),
      );
      registry.add(agent, 'x');
      emit({ type: 'agent-start', runId: 'r' });
      emit({ type: 'turn-start', step: 1 });
      // 10 deltas, one every 10 ms from t=10 (100 deltas/s): flushed at t=60 and t=120.
      cold(
        '----------a---------b---------c---------d---------e---------f---------g---------h---------i---------j|',
        {
          a: 'H',
          b: 'He',
          c: 'Hel',
          d: 'Hell',
          e: 'Hello',
          f: 'Hello ',
          g: 'Hello w',
          h: 'Hello wo',
          i: 'Hello wor',
          j: 'Hello worl',
        },
      ).subscribe((text) => emit(textUpdate(text)));
      scheduler.schedule(() => {
        expect(seen).toEqual([
          'starting:',
          'starting:', // agent-start: same phase, but approvals reset → flushed at once
          'llm-in-flight:',
          'llm-in-flight:Hello ',
          'llm-in-flight:Hello worl',
        ]);
      }, 500);
    });
  });

  it('flushes at once on a phase change, so no phase is ever skipped', () => {
    const scheduler = newScheduler();
    scheduler.run(() => {
      const registry = new RunRegistry({ scheduler, throttleMs: 50 });
      const { agent, emit } = fakeAgent();
      const phases: string[] = [];
      registry.updates$.subscribe((u) => u.type === 'run' && phases.push(u.run.phase));
      registry.add(agent, 'x');
      const message = assistantMessage(
        [{ type: 'tool-call', id: 'c1', name: 'read_file', args: {} }],
        'tool-calls',
      );
      // Everything in the same instant: a throttle that only kept the latest would show 'tool-executing' alone.
      emit({ type: 'agent-start', runId: 'r' });
      emit({ type: 'turn-start', step: 1 });
      emit(textUpdate('Let me look'));
      emit({ type: 'message-end', message });
      emit({ type: 'tool-start', toolCallId: 'c1', toolName: 'read_file', args: {} });
      expect(phases).toEqual(['starting', 'starting', 'llm-in-flight', 'step-finished', 'tool-executing']);
    });
  });

  it('pushes a change of the pending approvals at once', () => {
    const scheduler = newScheduler();
    scheduler.run(() => {
      const registry = new RunRegistry({ scheduler, throttleMs: 50 });
      const { agent, emit } = fakeAgent();
      const approvals: number[] = [];
      registry.updates$.subscribe((u) => u.type === 'run' && approvals.push(u.run.pendingApprovals.length));
      registry.add(agent, 'x');
      emit({ type: 'tool-start', toolCallId: 'c1', toolName: 'write_file', args: {} });
      emit({ type: 'approval-request', toolCallId: 'c1', toolName: 'write_file', args: {} });
      emit({ type: 'approval-end', toolCallId: 'c1', toolName: 'write_file', approved: true });
      expect(approvals).toEqual([0, 0, 1, 0]);
    });
  });

  it('turns events into log lines (not the deltas) and keeps a short history', () => {
    const scheduler = newScheduler();
    const registry = new RunRegistry({ scheduler, eventHistory: 2 });
    const lines: string[] = [];
    registry.updates$.subscribe((u) => u.type === 'event' && lines.push(`${u.event.runId} ${u.event.text}`));
    const { agent, emit } = fakeAgent();
    registry.add(agent, 'x');
    emit({ type: 'agent-start', runId: 'r' });
    emit({ type: 'turn-start', step: 1 });
    emit(textUpdate('Hi'));
    emit({ type: 'approval-end', toolCallId: 'c1', toolName: 'write_file', approved: false, reason: 'no' });
    expect(lines).toEqual([
      'run-1 run started',
      'run-1 step 1: calling the model',
      'run-1 rejected write_file: no',
    ]);
    expect(registry.recentEvents().map((e) => e.text)).toEqual([
      'step 1: calling the model',
      'rejected write_file: no',
    ]);
  });

  it('stops following a removed run and completes on close', () => {
    const registry = new RunRegistry({ scheduler: newScheduler() });
    const updates: DashboardUpdate[] = [];
    let completed = false;
    registry.updates$.subscribe({ next: (u) => updates.push(u), complete: () => (completed = true) });
    const first = fakeAgent();
    const second = fakeAgent();
    registry.add(first.agent, 'a');
    registry.add(second.agent, 'b');
    expect(registry.remove('run-1')).toBe(true);
    expect(registry.remove('run-1')).toBe(false);
    expect(updates.at(-1)).toEqual({ type: 'removed', id: 'run-1' });
    const count = updates.length;
    first.emit({ type: 'turn-start', step: 1 });
    expect(updates).toHaveLength(count);
    registry.close();
    expect(completed).toBe(true);
    second.emit({ type: 'turn-start', step: 1 });
    expect(updates).toHaveLength(count);
    expect(registry.snapshots()).toEqual([]);
  });
});
