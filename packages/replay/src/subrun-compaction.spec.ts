import { z } from 'zod';
import { runAgent, tool } from '@rxagent/core';
import { contextEngine } from '@rxagent/context';
import { subagentTool } from '@rxagent/subagents';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { forkRun } from './fork-run.js';
import { recordRun } from './record-run.js';
import { replayRun } from './replay-run.js';
import { readRunLog } from './read-run-log.js';
import { memoryLog } from './run-log-sink.js';
import { eventsOf, plain, still } from './run-fixtures.test.js';

describe('runs with sub-agents and compaction', () => {
  it('replays a run whose sub-agent ran (its events on the stream), and forks after it without running it again', async () => {
    let lookups = 0;
    const lookup = tool({
      name: 'lookup',
      description: 'Look something up',
      parameters: z.object({ q: z.string() }),
      execute: ({ q }) => {
        lookups++;
        return `found ${q}`;
      },
    });
    const scoutTurns = [
      toolCallTurn({ id: 's1', name: 'lookup', args: { q: 'entry' } }),
      textTurn('It is src/main.ts.'),
    ];
    const scout = scriptedModel([...scoutTurns, ...scoutTurns]);
    const subagent = (model = scout) =>
      subagentTool({
        agents: { scout: { description: 'Explores', model, tools: [lookup], scheduler: still } },
      });
    const turns = [
      toolCallTurn({ id: 'p1', name: 'subagent', args: { agent: 'scout', task: 'Find the entry point.' } }),
      toolCallTurn({ id: 'p2', name: 'subagent', args: { agent: 'scout', task: 'And the tests?' } }),
      textTurn('Done.'),
    ];
    const parent = scriptedModel(turns);
    const sink = memoryLog();
    const events = await eventsOf(
      recordRun(
        runAgent({ model: parent, tools: [subagent()], prompt: 'Where?', runId: 'r', scheduler: still }),
        sink,
      ),
    );
    expect(events.some((e) => e.type === 'subrun')).toBe(true);
    const log = readRunLog(sink.lines);
    const counts = [parent.calls, scout.calls, lookups];
    expect(await eventsOf(replayRun(log, { speed: Infinity }))).toEqual(events);
    expect([parent.calls, scout.calls, lookups]).toEqual(counts);

    // Forked after the first sub-agent call: the second runs live, the first is not run again.
    const rest = scriptedModel(turns.slice(1));
    const liveScout = scriptedModel(scoutTurns);
    const fork = await eventsOf(
      forkRun(log, {
        at: { step: 1 },
        config: { model: rest, tools: [subagent(liveScout)], scheduler: still },
      }),
    );
    expect(liveScout.calls).toBe(2); // one sub-run: the second call's
    expect(plain(rest.requests)).toEqual(plain(log.requests().slice(1)));
    expect(fork.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('replays a run that compacted its context, and forks it after a compaction with the same requests', async () => {
    const long = 'x'.repeat(6_000);
    const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => long });
    const turns = [1, 2, 3, 4].map((i) => toolCallTurn({ id: `c${i}`, name: 'echo', args: {} }));
    const model = scriptedModel([...turns, textTurn('Done.')]);
    const summaryModel = scriptedModel([textTurn('Summary of the work so far.'), textTurn('Summary again.')]);
    const engine = (m = model, summary = summaryModel) =>
      contextEngine({
        model: m,
        summaryModel: summary,
        contextWindow: 4_000,
        reserveTokens: 500,
        keepRecentTokens: 1_000,
      });
    const sink = memoryLog();
    const events = await eventsOf(
      recordRun(
        runAgent({ model, tools: [echo], prompt: 'Go', scheduler: still, contextManager: engine() }),
        sink,
      ),
    );
    expect(events.some((e) => e.type === 'compaction')).toBe(true);
    const calls = [model.calls, summaryModel.calls];
    expect(await eventsOf(replayRun(readRunLog(sink.lines), { speed: Infinity }))).toEqual(events);
    expect([model.calls, summaryModel.calls]).toEqual(calls);
    const log = readRunLog(sink.lines);
    const compacted = log.events.find((e) => e.event.type === 'compaction')?.seq ?? 0;
    const point = log.snapshots.find((s) => s.afterSeq > compacted);
    expect(point).toBeDefined();
    const rest = scriptedModel([...turns, textTurn('Done.')].slice(point?.calls));
    const live = scriptedModel([textTurn('Summary again.')]);
    await eventsOf(
      forkRun(log, {
        at: { seq: point?.afterSeq ?? 0 },
        config: { model: rest, tools: [echo], scheduler: still, contextManager: engine(rest, live) },
      }),
    );
    expect(plain(rest.requests)).toEqual(plain(log.requests().slice(point?.calls)));
  });
});
