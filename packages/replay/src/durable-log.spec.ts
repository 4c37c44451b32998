import { lastValueFrom, toArray } from 'rxjs';
import { jsonSchema, tool, type ChatModel } from '@rxagent/core';
import { durableRuns, startWorker, type DurableRuns, type DurableWorker } from '@rxagent/durable';
import { startPostgres, textTurn, toolCallTurn, type PostgresServer } from '@rxagent/testing';
import { from } from 'rxjs';
import { readRunLog } from './read-run-log.js';
import { recordRun } from './record-run.js';
import { replayRun } from './replay-run.js';
import { memoryLog } from './run-log-sink.js';

// A durable run's event log (PostgreSQL, written with the wire codec) read as a run log: its
// events, as `watchRun` decodes them, recorded and replayed.

jest.setTimeout(60_000);

let pg: PostgresServer;
let worker: DurableWorker;
let runs: DurableRuns;

/** Two `note` calls, one per turn, then an answer. */
const plan: ChatModel = {
  provider: 'scripted',
  modelId: 'plan',
  stream: (request) => {
    const done = request.messages.filter((m) => m.role === 'tool').length;
    const turn =
      done < 2
        ? toolCallTurn({ name: 'note', id: `call_${done + 1}`, args: { line: `line-${done + 1}` } })
        : textTurn('Done: 2 lines.', { chunks: 3 });
    return from(turn.events);
  },
};

beforeAll(async () => {
  pg = await startPostgres();
  const note = tool({
    name: 'note',
    description: 'Note a line',
    parameters: jsonSchema<{ line: string }>({
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
    }),
    execute: ({ line }) => `noted ${line}`,
  });
  worker = await startWorker({
    databaseUrl: pg.url,
    workerId: 'replay-spec',
    models: { plan },
    tools: [note],
  });
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 50 });
});

afterAll(async () => {
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
});

describe('the durable event log', () => {
  it('is recorded as a run log and replays as the run it holds', async () => {
    const id = await runs.startRun({
      runId: 'durable-replay',
      model: 'plan',
      tools: ['note'],
      prompt: 'Note two lines.',
    });
    expect((await runs.runResult(id)).reason).toBe('completed');
    const watched = await lastValueFrom(runs.watchRun(id).pipe(toArray()));
    const sink = memoryLog();
    await lastValueFrom(recordRun(runs.watchRun(id), sink).pipe(toArray()));
    const log = readRunLog(sink.lines);
    expect(log.header).toMatchObject({ runId: 'durable-replay', recorded: 'events' });
    expect(log.end).toEqual({ outcome: 'completed' });
    const replayed = await lastValueFrom(replayRun(log, { speed: Infinity }).pipe(toArray()));
    expect(replayed).toEqual(watched);
    expect(replayed.filter((e) => e.type === 'tool-end')).toHaveLength(2);
    expect(replayed.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });
});
