import { lastValueFrom, map, toArray } from 'rxjs';
import { runAgent, type AgentEvent, type ChatRequest } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { ForkError } from './replay-errors.js';
import { forkRun } from './fork-run.js';
import type { ForkEdit } from './fork-edit.js';
import { recordRun } from './record-run.js';
import { readRunLog } from './read-run-log.js';
import { type RunLog } from './run-log.js';
import { memoryLog } from './run-log-sink.js';
import { countingTools, eventsOf, plain, sampleTurns, still } from './run-fixtures.test.js';

/** The sample run recorded at once, on a clock that stands still (a fork stamps the same times). */
async function recorded(): Promise<{ log: RunLog; events: AgentEvent[] }> {
  const sink = memoryLog();
  const { tools } = countingTools();
  const events = await eventsOf(
    recordRun(
      runAgent({
        model: scriptedModel(sampleTurns()),
        tools,
        system: 'Be brief.',
        runId: 'run-1',
        prompt: 'Go',
        scheduler: still,
      }),
      sink,
    ),
  );
  return { log: readRunLog(sink.lines), events };
}

const withoutStart = (events: readonly AgentEvent[]) => plain(events.filter((e) => e.type !== 'agent-start'));

/** Index of the first message that differs between two requests (-1 when none). */
function firstDifference(a: ChatRequest, b: ChatRequest): number {
  const n = Math.max(a.messages.length, b.messages.length);
  for (let i = 0; i < n; i++) if (JSON.stringify(a.messages[i]) !== JSON.stringify(b.messages[i])) return i;
  return -1;
}

describe('forkRun', () => {
  it('forked at any step with no edit, goes on with the original requests and events', async () => {
    const { log, events } = await recorded();
    const requests = log.requests();
    expect(log.snapshots.map((s) => s.step)).toEqual([1, 2, 3]);
    for (const point of log.snapshots) {
      const model = scriptedModel(sampleTurns().slice(point.calls));
      const { tools } = countingTools();
      const fork = await eventsOf(
        forkRun(log, {
          at: { step: point.step },
          config: { model, tools, system: 'Be brief.', scheduler: still },
        }),
      );
      expect(withoutStart(fork)).toEqual(withoutStart(events.slice(point.afterSeq)));
      expect(plain(model.requests)).toEqual(plain(requests.slice(point.calls)));
    }
  });

  it('with a tool result replaced, diverges exactly at that result', async () => {
    const { log } = await recorded();
    const model = scriptedModel(sampleTurns().slice(1));
    const { tools } = countingTools();
    const fork$ = forkRun(log, {
      at: { toolCallId: 'c1' },
      edit: { kind: 'tool-result', toolCallId: 'c1', content: 'found 99' },
      config: { model, tools, system: 'Be brief.', scheduler: still },
    });
    const events = await eventsOf(fork$);
    const original = log.request(1);
    const first = model.requests[0] as ChatRequest;
    const edited = original.messages.findIndex((m) => m.role === 'tool' && m.toolCallId === 'c1');
    expect(firstDifference(original, first)).toBe(edited);
    expect(first.messages[edited]).toMatchObject({ content: [{ type: 'text', text: 'found 99' }] });
    expect({ ...first, messages: [] }).toEqual({ ...original, messages: [] });
    // The step's end carries the edited result too.
    expect(events.find((e) => e.type === 'turn-end')).toMatchObject({
      step: { toolResults: [{ toolCallId: 'c1', content: [{ text: 'found 99' }] }] },
    });
  });

  it('with a message added, the system prompt, the tools or the model changed', async () => {
    const { log } = await recorded();
    const original = log.request(1);
    const first = async (edit: ForkEdit, model = scriptedModel(sampleTurns().slice(1))) => {
      const { tools } = countingTools();
      await eventsOf(
        forkRun(log, {
          at: { step: 1 },
          edit,
          config: { model, tools, system: 'Be brief.', scheduler: still },
        }),
      );
      return model.requests[0] as ChatRequest;
    };
    const added = await first({ kind: 'add-message', message: 'Check twice.' });
    expect(added.messages.slice(0, -1)).toEqual(plain(original.messages));
    expect(added.messages.at(-1)).toMatchObject({ role: 'user', content: 'Check twice.' });
    const system = await first({ kind: 'system', system: 'Be thorough.' });
    expect(system.system).toBe('Be thorough.');
    expect(plain(system.messages)).toEqual(plain(original.messages));
    const { tools } = countingTools();
    const fewer = await first({ kind: 'tools', tools: tools.slice(0, 1) });
    expect(fewer.tools?.map((t) => t.name)).toEqual(['lookup']);
    const other = scriptedModel(sampleTurns().slice(1), { modelId: 'other-model' });
    await first({ kind: 'model', model: other }, scriptedModel([]));
    expect(plain(other.requests[0]?.messages)).toEqual(plain(original.messages));
    const replaced = await first({
      kind: 'replace-message',
      index: 0,
      message: { role: 'user', content: 'Go, quickly', timestamp: 1000 },
    });
    expect(firstDifference(original, replaced)).toBe(0);
  });

  it('says where it came from: lineage on the fork and in its log header', async () => {
    const { log } = await recorded();
    const { tools } = countingTools();
    const fork$ = forkRun(log, {
      at: { seq: 20 },
      edit: { kind: 'system', system: 'Be terse.' },
      runId: 'fork-1',
      config: { model: scriptedModel(sampleTurns().slice(1)), tools, scheduler: still },
    });
    const point = log.snapshots.filter((s) => s.afterSeq <= 20).at(-1);
    expect(fork$.lineage).toEqual({
      runId: 'fork-1',
      parentRunId: 'run-1',
      forkedAt: { step: point?.step, seq: point?.afterSeq },
      edit: 'system',
    });
    const sink = memoryLog();
    const events = await eventsOf(recordRun(fork$, sink));
    expect(events[0]).toMatchObject({ type: 'agent-start', runId: 'fork-1' });
    const forkLog = readRunLog(sink.lines);
    expect(forkLog.header).toMatchObject({ runId: 'fork-1', recorded: 'full', lineage: fork$.lineage });
    expect(forkLog.calls).toBe(2);
  });

  it('refuses a fork point that does not exist, or a wrong edit, before any model call', async () => {
    const { log } = await recorded();
    const model = scriptedModel([textTurn('never')]);
    const { tools } = countingTools();
    const config = { model, tools, scheduler: still };
    const cases: [Parameters<typeof forkRun>[1], RegExp][] = [
      [{ at: { step: 9 }, config }, /No step 9 to fork at: the log has steps 1 to 3/],
      [{ at: { toolCallId: 'nope' }, config }, /No step of the log asked for the tool call nope/],
      [{ at: { seq: 2 }, config }, /No step had ended by event 2/],
      [{ at: {} as never, config }, /is not a fork point/],
      [
        { at: { step: 1 }, edit: { kind: 'tool-result', toolCallId: 'c3', content: 'x' }, config },
        /tool call c3, which has no result in the transcript at the fork point \(step 1\)/,
      ],
      [
        {
          at: { step: 1 },
          edit: { kind: 'replace-message', index: 1, message: { role: 'user', content: 'x', timestamp: 0 } },
          config,
        },
        /message 1 \(assistant\) with a user message/,
      ],
      [{ at: { step: 1 }, edit: { kind: 'rename' } as never, config }, /kind "rename" does not exist/],
    ];
    for (const [options, message] of cases) {
      expect(() => forkRun(log, options)).toThrow(ForkError);
      expect(() => forkRun(log, options)).toThrow(message);
    }
    // A log of events only holds no snapshot to fork from.
    const eventsOnly = memoryLog();
    await lastValueFrom(
      recordRun(
        runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'go' }).pipe(map((e) => e)),
        eventsOnly,
      ).pipe(toArray()),
    );
    expect(() => forkRun(readRunLog(eventsOnly.lines), { at: { step: 1 }, config })).toThrow(
      /holds only events/,
    );
    expect(model.calls).toBe(0);
  });
});
