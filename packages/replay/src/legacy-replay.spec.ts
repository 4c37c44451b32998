import { tap } from 'rxjs';
import { z } from 'zod';
import { createTestScheduler, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { runAgent, tool, withState, type AgentEvent } from '@rxagent/core';
import { foldEvents, type RecordedEvent } from '@rxagent/core/streams';
import { recordRun } from './record-run.js';
import { replayRun } from './replay-run.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });

function recordSample(): { log: RecordedEvent[]; finalMessages: unknown } {
  const log: RecordedEvent[] = [];
  let finalMessages: unknown;
  createTestScheduler().run(() => {
    const model = scriptedModel([toolCallTurn({ name: 'echo' }), textTurn('done')], { latency: 100 });
    const { events$, state$ } = withState(
      runAgent({ model, tools: [echo], prompt: 'go' }).pipe(recordRun(log)),
    );
    events$.subscribe({ complete: () => (finalMessages = state$.value.messages) });
  });
  return { log, finalMessages };
}

function replayTimes(log: RecordedEvent[], speed: number): RecordedEvent[] {
  const seen: RecordedEvent[] = [];
  const scheduler = createTestScheduler();
  scheduler.run(() => {
    replayRun(log, { speed }).subscribe((event) => seen.push({ at: scheduler.now(), event }));
  });
  return seen;
}

describe('recordRun(entries) / replayRun(entries): the older form, kept', () => {
  it('records each event with its time on the scheduler', () => {
    const { log } = recordSample();
    expect(log[0]).toEqual({ at: 0, event: expect.objectContaining({ type: 'agent-start' }) });
    // The scripted model answers 100 ms per event: the first message delta comes at 100.
    expect(log.find((r) => r.event.type === 'message-update')?.at).toBe(100);
    expect(log.at(-1)).toEqual({ at: 1100, event: expect.objectContaining({ type: 'agent-end' }) });
  });

  it('replays the events at the recorded pace, and faster', () => {
    const { log } = recordSample();
    expect(replayTimes(log, 1)).toEqual(log);
    expect(replayTimes(log, 4)).toEqual(log.map((r) => ({ at: r.at / 4, event: r.event })));
  });

  it('replays everything at once with speed Infinity', () => {
    const { log } = recordSample();
    const events: AgentEvent[] = [];
    replayRun(log, { speed: Infinity })
      .pipe(tap((e) => events.push(e)))
      .subscribe();
    expect(events).toEqual(log.map((r) => r.event));
  });

  it('rebuilds the run state from the log, after a JSON round trip', () => {
    const { log, finalMessages } = recordSample();
    const saved = JSON.parse(JSON.stringify(log)) as RecordedEvent[];
    const state = foldEvents(saved.map((r) => r.event));
    expect(state.messages).toEqual(finalMessages);
    expect(state).toMatchObject({ phase: 'idle', stopReason: 'completed', step: 2 });
  });
});

describe('the names moved from @rxagent/core/streams', () => {
  it('are exported by @rxagent/replay, the ones Agent.resume reads the very same functions', async () => {
    const replay = await import('./index.js');
    const streams = await import('@rxagent/core/streams');
    expect(replay.resumeTranscript).toBe(streams.resumeTranscript);
    expect(replay.foldEvents).toBe(streams.foldEvents);
    expect(typeof replay.recordRun).toBe('function');
    expect(typeof replay.replayRun).toBe('function');
    expect('recordRun' in streams).toBe(false);
  });
});
