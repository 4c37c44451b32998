import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom, map } from 'rxjs';
import { InMemorySession, runAgent } from '@rxagent/core';
import { FileSession, SqliteSession } from '@rxagent/sessions';
import { errorTurn, scriptedModel, textTurn } from '@rxagent/testing';
import { ProviderError } from '@rxagent/core';
import { recordRun } from './record-run.js';
import { RunLogFormatError, RunLogTruncatedError, RunLogVersionError } from './replay-errors.js';
import { replayRun } from './replay-run.js';
import { readRunLog, readRunLogFile } from './read-run-log.js';
import { fileLog, memoryLog, type RunLogSink } from './run-log-sink.js';
import { readSessionLog, sessionLog } from './session-log.js';
import { countingTools, eventsOf, plain, recordSample, sampleTurns, still } from './run-fixtures.test.js';

describe('recordRun', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rxagent-replay-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes a version header, the wire events, each request and answer, a snapshot per turn and the end', () => {
    const { log, events, model } = recordSample();
    const lines = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines[0]).toEqual({
      format: 'rxagent-run-log',
      version: 1,
      runId: 'run-1',
      provider: 'scripted',
      modelId: 'scripted-model',
      recorded: 'full',
    });
    const kinds = lines.slice(1).map((l) => l.kind);
    expect(kinds.filter((k) => k === 'request')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'response')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'snapshot')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'event')).toHaveLength(events.length);
    expect(lines.at(-1)).toMatchObject({ kind: 'end', outcome: 'completed' });
    // The wire form: sequence numbers from 1, a streamed delta without the partial message.
    const wire = lines.filter((l) => l.kind === 'event').map((l) => l.event as Record<string, unknown>);
    expect(wire.map((w) => w.seq)).toEqual(events.map((_, i) => i + 1));
    const update = wire.find((w) => w.type === 'message-update');
    expect(update).not.toHaveProperty('message');

    const read = readRunLog(log.lines);
    expect(read.events.map((e) => e.event)).toEqual(events);
    expect(read.cut).toBeUndefined();
    expect(plain(read.requests())).toEqual(plain(model.requests));
    expect(read.response(2)?.message?.content).toEqual([{ type: 'text', text: 'The answer is 4.' }]);
    expect(read.snapshots.map((s) => s.step)).toEqual([1, 2, 3]);
  });

  it('writes each message of the transcript once: requests and snapshots carry what changed', () => {
    const { log } = recordSample();
    const lines = log.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = lines
      .filter((l) => l.kind === 'request')
      .map((l) => l.request as { messages: { keep: number; add: unknown[] } });
    expect(requests.map((r) => [r.messages.keep, r.messages.add.length])).toEqual([
      [0, 1],
      [1, 2],
      [3, 3],
    ]);
    const read = readRunLog(log.lines);
    // Each snapshot read back is the one the run gave (same as `onSnapshot`).
    expect(read.snapshot(2).messages).toHaveLength(7);
    expect(read.snapshot(0).messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('writes the same lines to memory, a file, a FileSession, an SqliteSession and an InMemorySession', async () => {
    const run = (sink: RunLogSink) => {
      const { tools } = countingTools();
      return lastValueFrom(
        recordRun(
          runAgent({
            model: scriptedModel(sampleTurns()),
            tools,
            runId: 'r',
            prompt: 'go',
            scheduler: still,
          }),
          sink,
        ),
      );
    };
    const timeless = (lines: readonly string[]) => lines.map((l) => JSON.parse(l) as unknown);
    const memory = memoryLog();
    await run(memory);
    const file = join(dir, 'run.jsonl');
    await run(fileLog(file));
    expect(timeless(readFileSync(file, 'utf8').trimEnd().split('\n'))).toEqual(timeless(memory.lines));
    expect(readRunLogFile(file).events.length).toBe(readRunLog(memory.lines).events.length);
    const sqlite = new SqliteSession(join(dir, 'runs.db'), 'run-log:r');
    const sessions = [new FileSession(join(dir, 'session.jsonl')), sqlite, new InMemorySession()];
    for (const session of sessions) {
      await run(sessionLog(session));
      const lines = await readSessionLog(session);
      expect(timeless(lines)).toEqual(timeless(memory.lines));
      const events = await eventsOf(replayRun(readRunLog(lines), { speed: Infinity }));
      expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
      // The same run as the memory log's, event for event.
      expect(events).toEqual(await eventsOf(replayRun(readRunLog(memory.lines), { speed: Infinity })));
    }
    sqlite.close();
  });

  it('records a failed run with its error, without the model secrets', async () => {
    const secret = 'sk-test-secret-123456';
    const model = {
      ...scriptedModel([
        errorTurn(new ProviderError(`bad key ${secret}`, { retryable: false, status: 401 })),
      ]),
      secrets: [secret],
    };
    const log = memoryLog();
    const failed = await lastValueFrom(recordRun(runAgent({ model, prompt: 'go' }), log)).catch(
      (e: unknown) => e,
    );
    expect(failed).toBeInstanceOf(Error);
    expect(log.text()).not.toContain(secret);
    expect(readRunLog(log.lines).end).toMatchObject({ outcome: 'error' });
    expect(readRunLog(log.lines).response(0)?.error).toMatchObject({ status: 401 });
  });

  it('records a run piped through other operators by its events only', async () => {
    const log = memoryLog();
    const run$ = runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'go' }).pipe(map((e) => e));
    await lastValueFrom(recordRun(run$, log));
    const read = readRunLog(log.lines);
    expect(read.header.recorded).toBe('events');
    expect(read.calls).toBe(0);
    expect(read.events.at(-1)?.event.type).toBe('agent-end');
  });

  it('refuses a log of another format version, naming both', () => {
    const { log } = recordSample();
    const lines = [
      JSON.stringify({ ...(JSON.parse(log.lines[0] as string) as object), version: 7 }),
      ...log.lines.slice(1),
    ];
    expect(() => readRunLog(lines)).toThrow(RunLogVersionError);
    expect(() => readRunLog(lines)).toThrow(/format version 7; this @rxagent\/replay reads version 1/);
  });

  it('refuses data that is not a run log, and a damaged line in the middle, naming the line', () => {
    expect(() => readRunLog('{"hello":1}\n')).toThrow(RunLogFormatError);
    const { log } = recordSample();
    const lines = [...log.lines];
    lines[3] = '{"kind": "ev';
    expect(() => readRunLog(lines)).toThrow(/Line 4 of the run log is not JSON/);
    // Event lines are decoded when the events are first read: a damaged one is named then.
    lines[3] = log.lines[3] as string;
    const event = lines.findIndex((l) => l.startsWith('{"kind":"event"') && l.includes('"seq":3,'));
    lines[event] = (lines[event] as string).slice(0, 30);
    const read = readRunLog(lines);
    expect(() => read.events).toThrow(RunLogFormatError);
    expect(() => read.events).toThrow(`Line ${event + 1} of the run log is not JSON`);
    // So are requests and answers (a fork reads neither): a damaged one is named when first used.
    const request = log.lines.findIndex((l) => l.startsWith('{"kind":"request"') && l.includes('"call":1,'));
    const answer = log.lines.findIndex((l) => l.startsWith('{"kind":"response"') && l.includes('"call":0,'));
    const damaged = [...log.lines];
    damaged[request] = (damaged[request] as string).slice(0, 60);
    damaged[answer] = (damaged[answer] as string).slice(0, 60);
    const lazy = readRunLog(damaged);
    expect(lazy.calls).toBe(3);
    expect(lazy.request(0).messages).toHaveLength(1);
    expect(() => lazy.requests()).toThrow(`Line ${request + 1} of the run log is not JSON`);
    expect(() => lazy.response(0)).toThrow(`Line ${answer + 1} of the run log is not JSON`);
    expect(lazy.response(1)?.message?.role).toBe('assistant');
  });

  it('reads a truncated log up to the cut, and the replay says where it stops', async () => {
    const { log, events } = recordSample();
    const file = join(dir, 'cut.jsonl');
    // A process killed mid-write: the last line is torn.
    const text = log.text();
    writeFileSync(file, text.slice(0, Math.floor(text.length * 0.6)));
    const cut = readRunLogFile(file);
    expect(cut.cut).toMatchObject({ reason: 'its last line is torn' });
    const seen: unknown[] = [];
    const error = await lastValueFrom(
      replayRun(cut, { speed: Infinity }).pipe(map((e) => seen.push(e))),
    ).catch((e: unknown) => e);
    expect(RunLogTruncatedError.isInstance(error)).toBe(true);
    const at = (error as RunLogTruncatedError).afterSeq;
    expect(at).toBeGreaterThan(0);
    expect(seen).toEqual(events.slice(0, at));
    expect((error as Error).message).toContain(`after event ${at}`);
    // No end line: cut after the last line.
    const noEnd = readRunLog(log.lines.slice(0, -1));
    expect(noEnd.cut).toMatchObject({ line: log.lines.length, afterSeq: events.length });
  });

  it('reads the log from its text as from its lines', () => {
    const { log, events } = recordSample();
    expect(readRunLog(log.text()).events.map((e) => e.event)).toEqual(events);
  });
});
