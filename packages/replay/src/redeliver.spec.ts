import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NEVER, tap } from 'rxjs';
import { z } from 'zod';
import { MessageQueue, runAgent, tool, type AgentEvent, type ChatRequest } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { comparable, diffRuns } from './diff-runs.js';
import { forkRun } from './fork-run.js';
import { recordRun } from './record-run.js';
import { recordedArrivals } from './recorded-messages.js';
import { readRunLogFile } from './read-run-log.js';
import { replaySuite, rerunRecording } from './replay-suite.js';
import type { RunLog } from './run-log.js';
import { fileLog } from './run-log-sink.js';
import { countingTools, eventsOf, plain, still } from './run-fixtures.test.js';

/**
 * The model of the run: a lookup; two more (the second skipped: a steering message came while the
 * first ran); one more (a follow-up queued while it ran); an answer; the follow-up's answer.
 */
const turns = () => [
  toolCallTurn({ id: 'c0', name: 'lookup', args: { n: 0 } }),
  toolCallTurn([
    { id: 'c1', name: 'lookup', args: { n: 1 } },
    { id: 'c2', name: 'lookup', args: { n: 2 } },
  ]),
  toolCallTurn({ id: 'c3', name: 'lookup', args: { n: 3 } }),
  textTurn('The answer is 8.'),
  textTurn('Summary: 3 lookups, answer 8.'),
];

const withoutStart = (events: readonly AgentEvent[]) => plain(events.filter((e) => e.type !== 'agent-start'));

describe('steering and follow-up messages of a recording', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rxagent-steer-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Records the run; a person steers as c1 starts and queues a follow-up as c3 starts. */
  async function record(): Promise<AgentEvent[]> {
    const steering = new MessageQueue();
    const followUps = new MessageQueue();
    const { tools } = countingTools();
    const run$ = runAgent({
      model: scriptedModel(turns()),
      tools,
      system: 'Be brief.',
      runId: 'steered',
      prompt: 'Add up the lookups.',
      steering$: steering,
      followUp$: followUps,
      scheduler: still,
    });
    return eventsOf(
      recordRun(run$, fileLog(join(dir, 'steered.jsonl'))).pipe(
        tap((e) => {
          if (e.type === 'tool-start' && e.toolCallId === 'c1') steering.push('Use only the first lookup.');
          if (e.type === 'tool-start' && e.toolCallId === 'c3') followUps.push('Then summarize.');
        }),
      ),
    );
  }

  it('are read from the snapshots with the step and the point where each came', async () => {
    const events = await record();
    const skipped = events.find((e) => e.type === 'tool-end' && e.toolCallId === 'c2');
    expect(skipped).toMatchObject({ outcome: 'skipped' });
    const arrivals = recordedArrivals(readRunLogFile(join(dir, 'steered.jsonl')));
    expect(arrivals.map((a) => [a.step, a.queue, a.point, a.message.content])).toEqual([
      [2, 'steering', { kind: 'tool-end', toolCallId: 'c1' }, 'Use only the first lookup.'],
      [3, 'followUp', { kind: 'step-end' }, 'Then summarize.'],
    ]);
  });

  it('come again in a suite: the same requests and events, and a prompt change is the one difference', async () => {
    await record();
    const { tools } = countingTools();
    const same = await replaySuite(dir, { config: { tools, system: 'Be brief.' } });
    expect(same).toMatchObject({ changed: 0, errors: 0, runs: [{ result: 'same' }] });
    const log = readRunLogFile(join(dir, 'steered.jsonl'));
    const rerun = rerunRecording(log, { tools, system: 'Be brief.' });
    expect(diffRuns(log, rerun)).toMatchObject({ transcript: [] });
    // Delivered at the same points: the same outcomes (c2 skipped), the same user messages where they were.
    const marks = (l: typeof log) =>
      l.events.flatMap(({ event: e }) =>
        e.type === 'tool-end'
          ? [`${e.toolCallId} ${e.outcome}`]
          : e.type === 'message-end' && e.message.role === 'user'
            ? [`user: ${JSON.stringify(e.message.content)}`]
            : e.type === 'turn-start'
              ? [`step ${e.step}`]
              : [],
      );
    expect(marks(rerun)).toEqual(marks(log));
    expect(marks(log)).toContain('c2 skipped');
    expect(rerun.calls).toBe(5);

    const changed = await replaySuite(dir, { config: { tools, system: 'Be thorough.' } });
    expect(changed).toMatchObject({ changed: 1, errors: 0 });
    const diff = changed.runs[0]?.diff;
    expect(diff?.firstDifferentRequest).toEqual({ callA: 0, callB: 0, part: 'system' });
    expect(diff?.transcript).toEqual([]);
    // Nothing else: every request is the recorded one but for its system prompt.
    const thorough = rerunRecording(log, { tools, system: 'Be thorough.' }).requests();
    const bodies = (requests: ChatRequest[]) =>
      requests.map(({ system: _system, ...rest }) => comparable(rest));
    expect(thorough.map((r) => r.system)).toEqual(Array(5).fill('Be thorough.'));
    expect(bodies(thorough)).toEqual(bodies(log.requests()));
  });

  it('come again as the call they cancelled starts: the call is cancelled again', async () => {
    const steering = new MessageQueue();
    const { tools } = countingTools();
    const wait = tool({
      name: 'wait',
      description: 'Waits',
      parameters: z.object({}),
      interrupt: 'cancel',
      execute: () => NEVER,
    });
    const model = scriptedModel([
      toolCallTurn([
        { id: 'w1', name: 'wait', args: {} },
        { id: 'c1', name: 'lookup', args: { n: 1 } },
      ]),
      textTurn('Stopped waiting.'),
    ]);
    const run$ = runAgent({
      model,
      tools: [...tools, wait],
      prompt: 'Wait.',
      steering$: steering,
      scheduler: still,
    });
    await eventsOf(
      recordRun(run$, fileLog(join(dir, 'cancelled.jsonl'))).pipe(
        tap((e) => e.type === 'tool-start' && e.toolCallId === 'w1' && steering.push('Stop waiting.')),
      ),
    );
    const log = readRunLogFile(join(dir, 'cancelled.jsonl'));
    expect(recordedArrivals(log).map((a) => a.point)).toEqual([{ kind: 'tool-start', toolCallId: 'w1' }]);
    const outcomes = (l: RunLog) =>
      l.events.flatMap(({ event: e }) => (e.type === 'tool-end' ? [`${e.toolCallId} ${e.outcome}`] : []));
    expect(outcomes(log)).toEqual(['w1 cancelled', 'c1 skipped']);
    const rerun = rerunRecording(log, { tools: [...tools, wait] });
    expect(outcomes(rerun)).toEqual(outcomes(log));
    expect(diffRuns(log, rerun).firstDifferentRequest).toBeUndefined();
  });

  it('come again in a fork made before they came, at the same points; not with redeliver: false', async () => {
    const events = await record();
    const log = readRunLogFile(join(dir, 'steered.jsonl'));
    const requests = log.requests();
    const point = log.snapshots[0];
    expect(point?.step).toBe(1);
    // The steering message comes as c1 ends (c2 is skipped again), the follow-up at step 3's end.
    const model = scriptedModel(turns().slice(1));
    const { tools, executions } = countingTools();
    const fork = await eventsOf(
      forkRun(log, { at: { step: 1 }, config: { model, tools, system: 'Be brief.', scheduler: still } }),
    );
    expect(withoutStart(fork)).toEqual(withoutStart(events.slice(point?.afterSeq)));
    expect(plain(model.requests)).toEqual(plain(requests.slice(1)));
    expect(executions()).toBe(2); // c1 and c3: c2 skipped

    // Into the config's own queue when it has one.
    const own = new MessageQueue();
    const again = scriptedModel(turns().slice(1));
    const mine = await eventsOf(
      forkRun(log, {
        at: { step: 1 },
        config: { model: again, tools, system: 'Be brief.', scheduler: still, followUp$: own },
      }),
    );
    expect(withoutStart(mine)).toEqual(withoutStart(fork));
    expect(own.size).toBe(0);

    const without = scriptedModel(turns().slice(1));
    const bare = await eventsOf(
      forkRun(log, {
        at: { step: 1 },
        redeliver: false,
        config: { model: without, tools, system: 'Be brief.', scheduler: still },
      }),
    );
    expect(bare.find((e) => e.type === 'tool-end' && e.toolCallId === 'c2')).toMatchObject({
      outcome: 'executed',
    });
    expect(bare.some((e) => e.type === 'message-end' && e.message.role === 'user')).toBe(false);
    expect(without.calls).toBe(3);
  });
});
