import type { Observable } from 'rxjs';
import { runAgent, type AgentEvent } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { diffRuns } from './diff-runs.js';
import { forkRun } from './fork-run.js';
import { formatRunDiff } from './format-run-diff.js';
import { recordRun } from './record-run.js';
import { readRunLog } from './read-run-log.js';
import { type RunLog } from './run-log.js';
import { memoryLog } from './run-log-sink.js';
import { countingTools, eventsOf, plain, sampleTurns, still } from './run-fixtures.test.js';

async function record(run$: Observable<AgentEvent>): Promise<RunLog> {
  const sink = memoryLog();
  await eventsOf(recordRun(run$, sink));
  return readRunLog(sink.lines);
}

const original = (runId: string) => {
  const { tools } = countingTools();
  return record(
    runAgent({ model: scriptedModel(sampleTurns()), tools, runId, prompt: 'Go', scheduler: still }),
  );
};

describe('diffRuns', () => {
  it('finds nothing between two runs of the same thing (run ids and times aside)', async () => {
    const diff = diffRuns(await original('run-1'), await original('run-2'));
    expect(diff).toMatchObject({ identical: true, transcript: [], usage: { delta: { totalTokens: 0 } } });
    expect(diff.firstDivergentEvent).toBeUndefined();
    expect(diff.firstDifferentRequest).toBeUndefined();
    expect(formatRunDiff(diff)).toContain('identical: same events, transcript and requests');
  });

  it('compares a fork with its parent from the fork point: event, transcript, request and usage', async () => {
    const a = await original('run-1');
    const { tools } = countingTools();
    const turns = sampleTurns();
    turns[2] = textTurn('The answer is 198.', { usage: { inputTokens: 32, outputTokens: 9 } });
    const b = await record(
      forkRun(a, {
        at: { step: 1 },
        edit: { kind: 'tool-result', toolCallId: 'c1', content: 'found 99' },
        runId: 'fork-1',
        config: { model: scriptedModel(turns.slice(1)), tools, scheduler: still },
      }),
    );
    const diff = diffRuns(a, b);
    expect(diff.identical).toBe(false);
    expect(diff.forkedAt).toEqual({ step: 1, seq: a.snapshots[0]?.afterSeq });
    // The fork's first event is its step's end, which carries the edited result.
    expect(diff.firstDivergentEvent).toMatchObject({
      index: 0,
      a: { event: { type: 'turn-end' } },
      b: { event: { type: 'turn-end' } },
    });
    expect(diff.transcript.map((m) => [m.index, m.change])).toEqual([
      [2, 'changed'],
      [6, 'changed'],
    ]);
    expect(diff.firstDifferentRequest).toEqual({ callA: 1, callB: 0, part: 'messages', messageIndex: 2 });
    expect(diff.usage.delta).toEqual({ inputTokens: 2, outputTokens: 4, totalTokens: 6 });
    // The JSON form is plain JSON; the text form says each finding.
    expect(plain(diff)).toEqual(diff);
    const text = formatRunDiff(diff);
    expect(text).toContain('b is a fork of a at step 1');
    expect(text).toContain('  - [2] tool lookup c1: found 2');
    expect(text).toContain('  + [2] tool lookup c1: found 99');
    expect(text).toContain('first different request: a call 1, b call 0: message 2');
    expect(text).toContain('(+2 in, +4 out, +6 total)');
  });

  it('says which part of a request differs: the system prompt, the tools, or a call one run did not make', async () => {
    const a = await original('run-1');
    const { tools } = countingTools();
    const sys = await record(
      runAgent({
        model: scriptedModel(sampleTurns()),
        tools,
        runId: 'r',
        prompt: 'Go',
        system: 'Be terse.',
        scheduler: still,
      }),
    );
    expect(diffRuns(a, sys).firstDifferentRequest).toEqual({ callA: 0, callB: 0, part: 'system' });
    const fewer = await record(
      runAgent({
        model: scriptedModel(sampleTurns()),
        tools: tools.slice(0, 1),
        runId: 'r',
        prompt: 'Go',
        scheduler: still,
      }),
    );
    expect(diffRuns(a, fewer).firstDifferentRequest).toMatchObject({ callA: 0, part: 'tools' });
    const short = await record(
      runAgent({ model: scriptedModel([textTurn('No.')]), runId: 'r', prompt: 'Go', scheduler: still }),
    );
    const diff = diffRuns(a, short);
    expect(diff.firstDifferentRequest).toMatchObject({ callA: 0, part: 'tools' });
    expect(diff.transcript.at(-1)).toMatchObject({ change: 'removed' });
    const turns = sampleTurns();
    const early = await record(
      runAgent({
        model: scriptedModel([...turns.slice(0, 1), textTurn('It is 2.')]),
        tools,
        runId: 'r',
        prompt: 'Go',
        scheduler: still,
      }),
    );
    expect(diffRuns(a, early).firstDifferentRequest).toEqual({ callA: 2, callB: 2, part: 'missing' });
  });
});
