import {
  durableRuns,
  durableTool,
  DurableRunEndedError,
  DurableRunSpecError,
  DurableUsageError,
  startWorker,
  type DurableRuns,
  type DurableWorker,
} from '@rxagent/durable';
import { startPostgres, textTurn, toolCallTurn, type PostgresServer } from '@rxagent/testing';
import {
  jsonSchema,
  ProviderError,
  RateLimitError,
  tool,
  withState,
  type AgentEvent,
  type ChatModel,
} from '@rxagent/core';
import { Pool } from 'pg';
import { first, firstValueFrom, from, lastValueFrom, throwError, toArray } from 'rxjs';
import { stableEvents, waitFor, withoutTimes } from './durable-test-kit.test.js';

// One worker in this process (DBOS allows one per process) and a client, on a real PostgreSQL.

jest.setTimeout(60_000);

const LONG_ANSWER = 'abc '.repeat(5000);

let pg: PostgresServer;
let worker: DurableWorker;
let runs: DurableRuns;
const noted: string[] = [];
const flakyFailures = new Set<string>();

/** A model whose turn follows from the request: `lines` calls of `toolName`, one per turn, then an answer. */
function planModel(lines: number, toolName: string): ChatModel {
  return {
    provider: 'scripted',
    modelId: 'plan',
    stream: (request) => {
      const done = request.messages.filter((m) => m.role === 'tool').length;
      const turn =
        done < lines
          ? toolCallTurn({ name: toolName, id: `call_${done + 1}`, args: { line: `line-${done + 1}` } })
          : textTurn(`Done: ${lines} lines.`, { chunks: 3 });
      return from(turn.events);
    },
  };
}

const prompt = (request: { messages: readonly { role: string; content: unknown }[] }): string => {
  const content = request.messages.find((m) => m.role === 'user')?.content;
  return typeof content === 'string' ? content : '';
};

const note = (name: string, needsApproval = false) =>
  tool({
    name,
    description: 'Note a line',
    parameters: jsonSchema<{ line: string }>({
      type: 'object',
      properties: { line: { type: 'string' } },
      required: ['line'],
    }),
    needsApproval,
    execute: ({ line }, ctx) => {
      noted.push(`${ctx.runId} ${line}`);
      return `noted ${line}`;
    },
  });

beforeAll(async () => {
  pg = await startPostgres();
  const plan = planModel(2, 'note');
  worker = await startWorker({
    databaseUrl: pg.url,
    workerId: 'in-process',
    concurrency: { perWorker: 2 },
    models: {
      plan,
      guarded: planModel(1, 'guarded_note'),
      // A 20,000-character answer in 4-character deltas.
      long: {
        provider: 'scripted',
        modelId: 'long',
        stream: () => from(textTurn(LONG_ANSWER, { chunks: 5000 }).events),
      },
      broken: {
        provider: 'scripted',
        modelId: 'broken',
        stream: () => throwError(() => new ProviderError('Bad request: no such model.', { status: 400 })),
      },
      // Fails once per run with a rate limit, then plans: the failed attempt is a recorded step too.
      flaky: {
        provider: 'scripted',
        modelId: 'flaky',
        stream: (request) => {
          const key = prompt(request);
          if (flakyFailures.has(key)) return plan.stream(request);
          flakyFailures.add(key);
          return throwError(() => new RateLimitError('Slow down.', { status: 429, retryAfterMs: 10 }));
        },
      },
    },
    tools: [durableTool(note('note'), { durability: 'idempotent' }), note('guarded_note', true)],
  });
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 50 });
});

afterAll(async () => {
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
});

describe('startRun', () => {
  it('refuses a model or tool no worker registered with a typed error, and enqueues nothing', async () => {
    await expect(runs.startRun({ runId: 'bad-model', model: 'gpt-9', prompt: 'Hi' })).rejects.toThrow(
      /No worker registered the model "gpt-9" \(registered: "plan", "guarded", "long", "broken", "flaky"\)/,
    );
    await expect(
      runs.startRun({ runId: 'bad-tool', model: 'plan', tools: ['rm_rf'], prompt: 'Hi' }),
    ).rejects.toBeInstanceOf(DurableRunSpecError);
    await expect(runs.startRun({ model: 'plan', prompt: 'Hi', maxSteps: 0 })).rejects.toThrow(
      /maxSteps must be a positive integer/,
    );
    await expect(runs.startRun({ model: 'plan' })).rejects.toThrow(/needs a prompt or prior messages/);
    await expect(runs.status('bad-model')).resolves.toBeUndefined();
    await expect(runs.status('bad-tool')).resolves.toBeUndefined();
  });

  it('is idempotent for a run id: starting it again neither runs it twice nor changes it', async () => {
    const spec = { runId: 'twice', model: 'plan', tools: ['note'], prompt: 'Note two lines (twice).' };
    expect(await runs.startRun(spec)).toBe('twice');
    expect(await runs.startRun(spec)).toBe('twice');
    const result = await runs.runResult('twice');
    expect(result.reason).toBe('completed');
    expect(noted.filter((l) => l.startsWith('twice '))).toEqual(['twice line-1', 'twice line-2']);
  });
});

describe('watchRun', () => {
  it('gives a late watcher the whole run, which folds to the same state as the result', async () => {
    const id = await runs.startRun({ model: 'plan', tools: ['note'], prompt: 'Note two lines (late).' });
    const live = await lastValueFrom(runs.watchRun(id).pipe(toArray()));
    const late = await lastValueFrom(runs.watchRun(id).pipe(toArray()));
    expect(late).toEqual(live);
    expect(stableEvents(late)).toEqual([
      'agent-start',
      'turn-start',
      'message-start',
      'message-end',
      'message-start',
      'message-end',
      'tool-start:call_1',
      'tool-end:call_1',
      'message-start',
      'message-end',
      'turn-end',
      'turn-start',
      'message-start',
      'message-end',
      'tool-start:call_2',
      'tool-end:call_2',
      'message-start',
      'message-end',
      'turn-end',
      'turn-start',
      'message-start',
      'message-end',
      'turn-end',
      'agent-end',
    ]);
    const { events$, state$ } = withState(runs.watchRun(id));
    const last = lastValueFrom(state$);
    await lastValueFrom(events$);
    const state = await last;
    const result = await runs.runResult(id);
    expect(state.phase).toBe('done');
    expect(withoutTimes(state.messages.slice(-result.messages.length))).toEqual(
      withoutTimes(result.messages),
    );
    expect(result.text).toBe('Done: 2 lines.');
  });

  it('logs deltas, not snapshots: a 20,000-character answer takes at most 1.3 times its bytes', async () => {
    const id = await runs.startRun({ model: 'long', prompt: 'Say it at length.' });
    const result = await runs.runResult(id);
    expect(result.text).toBe(LONG_ANSWER);
    const pool = new Pool({ connectionString: pg.url });
    const { rows } = await pool
      .query<{ bytes: string }>(
        'SELECT sum(octet_length(body::text)) AS bytes FROM rxagent_durable.events WHERE run_id = $1',
        [id],
      )
      .finally(() => pool.end());
    const bytes = Number(rows[0]?.bytes);
    expect(bytes / LONG_ANSWER.length).toBeLessThanOrEqual(1.3);
    // A late watcher rebuilds every partial message from the deltas and folds the run's state.
    const { events$, state$ } = withState(runs.watchRun(id));
    const events = await lastValueFrom(events$.pipe(toArray()));
    let streamed = '';
    for (const event of events) {
      if (event.type !== 'message-update') continue;
      streamed += event.delta.text;
      expect(event.message.content).toEqual([{ type: 'text', text: streamed }]);
    }
    expect(streamed).toBe(LONG_ANSWER);
    expect(withoutTimes(state$.value.messages.slice(-2))).toEqual(withoutTimes(result.messages));
  });

  it('lists runs newest first, with their status', async () => {
    const first = await runs.startRun({ model: 'plan', tools: ['note'], prompt: 'Note two lines (list 1).' });
    await runs.runResult(first);
    const second = await runs.startRun({
      model: 'plan',
      tools: ['note'],
      prompt: 'Note two lines (list 2).',
    });
    await runs.runResult(second);
    // A workflow ends just after its last event is logged, and DBOS records it just after.
    let listed = await runs.listRuns({ limit: 2 });
    for (let i = 0; i < 100 && listed.some((r) => r.status !== 'SUCCESS'); i++) {
      await new Promise((r) => setTimeout(r, 50));
      listed = await runs.listRuns({ limit: 2 });
    }
    expect(listed.map((r) => r.runId)).toEqual([second, first]);
    expect(listed.map((r) => r.status)).toEqual(['SUCCESS', 'SUCCESS']);
    expect(listed[0]?.createdAt).toBeGreaterThanOrEqual(listed[1]?.createdAt ?? Infinity);
  });

  it('fails a watcher of a run that failed with the typed error it failed with', async () => {
    const id = await runs.startRun({ model: 'broken', prompt: 'Hi (broken).', maxRetries: 0 });
    const error = await lastValueFrom(runs.watchRun(id)).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ message: 'Bad request: no such model.', status: 400 });
  });

  it('replays a failed attempt as the same retry: the recorded error is retried like the live one', async () => {
    const id = await runs.startRun({
      model: 'flaky',
      tools: ['note'],
      prompt: 'Note two lines (flaky).',
      retryBackoff: { initialDelayMs: 5, jitter: 0 },
    });
    const events: AgentEvent[] = await lastValueFrom(runs.watchRun(id).pipe(toArray()));
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      expect.objectContaining({
        attempt: 1,
        error: expect.objectContaining({ name: 'RateLimitError', status: 429 }),
      }),
    ]);
    expect((await runs.runResult(id)).reason).toBe('completed');
  });
});

describe('approvals and cancel', () => {
  it('lets another process reject a call: the model reads the reason and the tool never runs', async () => {
    const id = await runs.startRun({
      model: 'guarded',
      tools: ['guarded_note'],
      prompt: 'Note a line (reject).',
    });
    await waitForEvent(id, 'approval-request');
    await runs.reject(id, 'call_1', 'Not in the log today.');
    const result = await runs.runResult(id);
    expect(result.reason).toBe('rejected');
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('Not in the log today.');
    expect(noted.filter((l) => l.startsWith(`${id} `))).toEqual([]);
  });

  it('cancels a run waiting for approval from another process: it ends with user-requested', async () => {
    const id = await runs.startRun({
      model: 'guarded',
      tools: ['guarded_note'],
      prompt: 'Note a line (cancel).',
    });
    await waitForEvent(id, 'approval-request');
    await runs.cancel(id);
    const result = await runs.runResult(id);
    expect(result.reason).toBe('user-requested');
    expect(noted.filter((l) => l.startsWith(`${id} `))).toEqual([]);
  });

  it('cancels a queued run before it starts: its watcher fails with DurableRunEndedError', async () => {
    // Two runs wait for approval and fill the worker's two slots; the third stays queued.
    const a = await runs.startRun({ model: 'guarded', tools: ['guarded_note'], prompt: 'Hold a slot (a).' });
    const b = await runs.startRun({ model: 'guarded', tools: ['guarded_note'], prompt: 'Hold a slot (b).' });
    await Promise.all([waitForEvent(a, 'approval-request'), waitForEvent(b, 'approval-request')]);
    const queued = await runs.startRun({ model: 'plan', tools: ['note'], prompt: 'Never runs.' });
    expect(await runs.status(queued)).toBe('ENQUEUED');
    await runs.cancel(queued);
    const error = await lastValueFrom(runs.watchRun(queued)).catch((e: unknown) => e);
    expect(DurableRunEndedError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 'CANCELLED' });
    await runs.approve(a, 'call_1');
    await runs.approve(b, 'call_1');
    expect((await runs.runResult(a)).reason).toBe('completed');
    expect((await runs.runResult(b)).reason).toBe('completed');
    expect(noted.filter((l) => l.startsWith(`${queued} `))).toEqual([]);
  });
});

describe('startWorker', () => {
  it('refuses a second worker in the same process and bad options, with typed errors', async () => {
    await expect(
      startWorker({ databaseUrl: pg.url, models: { plan: planModel(1, 'note') } }),
    ).rejects.toThrow(/A worker already runs in this process/);
    await expect(startWorker({ databaseUrl: '', models: { plan: planModel(1, 'note') } })).rejects.toThrow(
      /needs databaseUrl/,
    );
    await expect(startWorker({ databaseUrl: pg.url, models: {} })).rejects.toThrow(/at least one model/);
    await expect(
      startWorker({
        databaseUrl: pg.url,
        models: { plan: planModel(1, 'note') },
        concurrency: { perWorker: 0 },
      }),
    ).rejects.toBeInstanceOf(DurableUsageError);
    await expect(
      startWorker({
        databaseUrl: pg.url,
        models: { plan: planModel(1, 'note') },
        tools: [note('note'), note('note')],
      }),
    ).rejects.toThrow(/two tools are named "note"/);
    // The runs above have ended; their workflows finish just after their last event is logged.
    await waitFor(() => worker.activeRuns().length === 0, 5000, 'the worker to finish its runs');
  });
});

async function waitForEvent(runId: string, type: AgentEvent['type']): Promise<void> {
  await firstValueFrom(runs.watchRun(runId).pipe(first((e) => e.type === type)));
}
