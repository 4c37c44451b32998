import { Agent, type AgentEvent } from '@rxagent/core';
import { scriptedModel } from '@rxagent/testing';
import { recordingInstrument } from './recording-instrument.js';
import { replayRun } from './replay-run.js';
import { readRunLog } from './read-run-log.js';
import { memoryLog } from './run-log-sink.js';
import { countingTools, eventsOf, sampleTurns, still } from './run-fixtures.test.js';

describe('recordingInstrument', () => {
  it("records an Agent's run in full: events, requests, answers and snapshots", async () => {
    const sink = memoryLog();
    const { tools } = countingTools();
    const model = scriptedModel(sampleTurns());
    const agent = new Agent({ model, tools, scheduler: still, instrument: recordingInstrument(sink) });
    const seen: AgentEvent[] = [];
    const subscription = agent.events$.subscribe((e) => seen.push(e));
    await agent.prompt('Go');
    subscription.unsubscribe();
    const log = readRunLog(sink.lines);
    expect(log.header).toMatchObject({ recorded: 'full', provider: 'scripted' });
    expect(log.end).toEqual({ outcome: 'completed' });
    expect(log.calls).toBe(3);
    expect(log.snapshots.map((s) => s.step)).toEqual([1, 2, 3]);
    expect(JSON.parse(JSON.stringify(log.requests()))).toEqual(JSON.parse(JSON.stringify(model.requests)));
    expect(await eventsOf(replayRun(log, { speed: Infinity }))).toEqual(seen);
  });
});
