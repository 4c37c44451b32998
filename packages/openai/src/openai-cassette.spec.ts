import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type ChatModel } from '@rxagent/core';
import { runResult } from '@rxagent/core/streams';
import {
  CassetteMismatchError,
  CassetteMissingError,
  cassetteModel,
  createTestScheduler,
  toMarbleLetters,
  type CassetteFile,
  type SseTestServer,
} from '@rxagent/testing';
import {
  API_KEY,
  chatText,
  chatToolCalls,
  scriptedServer,
  testModel,
} from './test-support/openai-fixtures.test.js';

// Recorded once with the official openai client against the local SSE server, then replayed
// with no server at all, in virtual time.
const weather = tool({
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 21 }),
});

let dir: string;
let server: SseTestServer | undefined;
beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'rxagent-cassette-'))));
afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(dir, { recursive: true, force: true });
});

/** A model no test may reach: replay must not call it. */
const unreachable: ChatModel = {
  provider: 'openai',
  modelId: 'gpt-test',
  stream: () => {
    throw new Error('replay called the real model');
  },
};

// The key in the prompt and in the options: it must not reach the file either way.
const PROMPT = {
  prompt: `Weather in Paris? (my key is ${API_KEY})`,
  providerOptions: { openai: { user: API_KEY } },
};

async function record(file: string): Promise<string> {
  server = await scriptedServer(
    { events: chatToolCalls([{ id: 'call_1', name: 'get_weather', pieces: ['{"city":', '"Paris"}'] }]) },
    { events: chatText(['It is 21 °C ', 'in Paris.']) },
  );
  const model = cassetteModel(testModel(server), { file, mode: 'record' });
  const result = await runResult(runAgent({ model, tools: [weather], ...PROMPT }));
  return result.text;
}

describe('cassetteModel over the official openai client', () => {
  it('records every call and replays it with no network, in virtual time', async () => {
    const file = path.join(dir, 'weather.cassette.json');
    expect(await record(file)).toBe('It is 21 °C in Paris.');
    await server?.close();
    server = undefined;

    const cassette = JSON.parse(readFileSync(file, 'utf8')) as CassetteFile;
    const recordedMs = cassette.interactions.reduce((sum, i) => sum + (i.events.at(-1)?.at ?? 0), 0);
    const scheduler = createTestScheduler();
    let end: AgentEvent | undefined;
    let endedAt = -1;
    const letters: string[] = [];
    scheduler.run(({ flush }) => {
      const model = cassetteModel(unreachable, { file, mode: 'replay' });
      runAgent({ model, tools: [weather], ...PROMPT })
        .pipe(toMarbleLetters())
        .subscribe({ next: (l) => letters.push(l), complete: () => (endedAt = scheduler.now()) });
      runAgent({
        model: cassetteModel(unreachable, { file, mode: 'replay' }),
        tools: [weather],
        ...PROMPT,
      }).subscribe((e) => e.type === 'agent-end' && (end = e));
      flush();
    });
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
    // `W`: the test model has no price, which the run says once (a warning).
    expect(letters.join('')).toMatch(/^ATSESU+W?E.*seSEN.*TSU+ENZ$/);
    // Both model calls took their recorded time, on the virtual clock.
    expect(endedAt).toBe(recordedMs);
  });

  it('never writes a secret to the file', async () => {
    const file = path.join(dir, 'secret.cassette.json');
    await record(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toContain(API_KEY);
    expect(text).toContain('[redacted]');
  });

  it('fails a request that differs with CassetteMismatchError showing the difference', async () => {
    const file = path.join(dir, 'weather.cassette.json');
    await record(file);
    const model = cassetteModel(unreachable, { file, mode: 'replay', pace: 'instant' });
    const error = await runResult(runAgent({ model, tools: [weather], prompt: 'Weather in Rome?' })).catch(
      (e: unknown) => e,
    );
    expect(CassetteMismatchError.isInstance(error)).toBe(true);
    const mismatch = error as CassetteMismatchError;
    expect(mismatch.differences).toContain(
      `messages[0].content: recorded "Weather in Paris? (my key is [redacted])", received "Weather in Rome?"`,
    );
    expect(mismatch.message).toContain('recorded request #1');
  });

  it('says to record first when the file is missing, and records in auto mode', async () => {
    const file = path.join(dir, 'none.cassette.json');
    const error = await runResult(
      runAgent({ model: cassetteModel(unreachable, { file, mode: 'replay' }), prompt: 'hi' }),
    ).catch((e: unknown) => e);
    expect(CassetteMissingError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('record it once');

    server = await scriptedServer({ events: chatText(['Hello.']) });
    const recorded = await runResult(
      runAgent({ model: cassetteModel(testModel(server), { file, mode: 'auto' }), prompt: 'hi' }),
    );
    const replayed = await runResult(
      runAgent({ model: cassetteModel(unreachable, { file, mode: 'auto' }), prompt: 'hi' }),
    );
    expect(replayed.text).toBe('Hello.');
    expect(replayed.messages).toHaveLength(recorded.messages.length);
    expect(server.requests).toHaveLength(1);
  });
});
