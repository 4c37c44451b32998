import { filter, lastValueFrom, map, toArray } from 'rxjs';
import { createTestScheduler, scriptedModel, toMarbleLetters } from '@rxagent/testing';
import { runAgent, type AgentEvent } from '@rxagent/core';
import { recordRun } from './record-run.js';
import { memoryLog } from './run-log-sink.js';
import { MissingToolResultError } from './replay-errors.js';
import { replayRun } from './replay-run.js';
import { readRunLog } from './read-run-log.js';
import { countingTools, eventsOf, recordSample, sampleTurns, still } from './run-fixtures.test.js';

describe('replayRun', () => {
  it('gives the same events in order, with zero model calls and zero tool executions', async () => {
    const { log, events, model, executions } = recordSample();
    expect([model.calls, executions()]).toEqual([3, 3]);
    const replayed = await lastValueFrom(
      replayRun(readRunLog(log.lines), { speed: Infinity }).pipe(toArray()),
    );
    expect(replayed).toEqual(events);
    // Nothing ran again.
    expect([model.calls, executions()]).toEqual([3, 3]);
  });

  it('keeps the recorded times on the scheduler: virtual time with a TestScheduler', () => {
    const { log } = recordSample();
    const read = readRunLog(log.lines);
    const seen: { at: number; type: string }[] = [];
    const scheduler = createTestScheduler();
    scheduler.run(() => {
      replayRun(read, { scheduler }).subscribe((e) => seen.push({ at: scheduler.now(), type: e.type }));
    });
    expect(seen).toEqual(read.events.map((e) => ({ at: e.at, type: e.event.type })));
    expect(seen.at(-1)).toEqual({ at: 220, type: 'agent-end' });
    const twice: number[] = [];
    const fast = createTestScheduler();
    fast.run(() => {
      replayRun(read, { scheduler: fast, speed: 2 }).subscribe(() => twice.push(fast.now()));
    });
    expect(twice).toEqual(read.events.map((e) => e.at / 2));
  });

  it('is a marble test written from a recorded run', () => {
    // The model streams 20 ms per event: two tool steps (the second with a failing call), then the answer.
    const { log } = recordSample(20);
    const scheduler = createTestScheduler();
    scheduler.run(({ expectObservable }) => {
      expectObservable(replayRun(readRunLog(log.lines), { scheduler }).pipe(toMarbleLetters())).toBe(
        '(ATSE) 14ms (SU) 16ms U 19ms U 79ms (EseSENT) 11ms (SU) 16ms U 39ms U 19ms U 79ms (EseseSESENT) 7ms (SU) 16ms U 19ms U 59ms (ENZ|)',
      );
    });
  });

  it('errors with MissingToolResultError where a recorded result is missing, never calling the tool', async () => {
    // A damaged recording: what reached the recorder had lost the first call's result.
    const { tools, executions } = countingTools();
    const damaged = memoryLog();
    const run$ = runAgent({ model: scriptedModel(sampleTurns()), tools, prompt: 'go', scheduler: still });
    const events = await eventsOf(
      recordRun(run$.pipe(filter((e) => !(e.type === 'tool-end' && e.toolCallId === 'c1'))), damaged),
    );
    expect(executions()).toBe(3);
    const seen: AgentEvent[] = [];
    const error = await lastValueFrom(
      replayRun(readRunLog(damaged.lines), { speed: Infinity }).pipe(map((e) => seen.push(e))),
    ).catch((e: unknown) => e);
    expect(MissingToolResultError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ toolCallId: 'c1', toolName: 'lookup' });
    // Replayed up to the step's end, which is where the result should have been.
    const stepEnd = events.findIndex((e) => e.type === 'turn-end');
    expect(seen).toEqual(events.slice(0, stepEnd));
    expect(executions()).toBe(3);
  });
});
