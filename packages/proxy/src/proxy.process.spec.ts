import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lastValueFrom, take, toArray } from 'rxjs';
import { RateLimitError, runAgent, userMessage } from '@rxagent/core';
import { startSseTestServer, type SseScript, type SseTestServer } from '@rxagent/testing';
import { proxyModel } from './proxy-model.js';
import {
  bundle,
  chatChunk,
  chatText,
  chatToolCall,
  PROXY_TOKEN,
  UPSTREAM_KEY,
} from './test-support/proxy-fixtures.test.js';
import { jsonSchema, tool } from '@rxagent/core';

// The server runs in a child process (the OpenAI adapter and the key live there); this process
// only has proxyModel.
jest.setTimeout(60_000);

let upstream: SseTestServer;
let child: ChildProcess;
let url: string;
let dir: string;
let queue: SseScript[] = [];
let childOutput = '';

beforeAll(async () => {
  upstream = await startSseTestServer(
    () => queue.shift() ?? { status: 500, json: { error: { message: 'no script left' } } },
  );
  dir = await mkdtemp(path.join(os.tmpdir(), 'rxagent-proxy-'));
  const script = path.join(dir, 'child-server.cjs');
  await writeFile(script, await bundle(path.join(__dirname, 'test-support', 'child-server.test.ts'), 'node'));
  child = spawn(process.execPath, [script], {
    env: { PATH: process.env.PATH, UPSTREAM_URL: upstream.url, UPSTREAM_KEY, PROXY_TOKEN },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (d: Buffer) => (childOutput += d.toString()));
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.split('\n')[0]!) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`child exited (${code}): ${childOutput}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await upstream.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a model served by another process', () => {
  it('runs an agent with tools through the child process', async () => {
    queue = [chatToolCall('call_1', 'add', '{"a":2,"b":3}'), chatText(['The sum is ', '5.'])];
    const add = tool({
      name: 'add',
      description: 'Add two numbers',
      parameters: jsonSchema<{ a: number; b: number }>({
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
      }),
      execute: ({ a, b }) => a + b,
    });
    const model = proxyModel({ url, token: PROXY_TOKEN });
    const events = await lastValueFrom(
      runAgent({ model, tools: [add], prompt: 'What is 2 + 3?' }).pipe(toArray()),
    );
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed' });
    const last = end?.type === 'agent-end' ? end.messages.at(-1) : undefined;
    expect(last).toMatchObject({
      role: 'assistant',
      provider: 'openai',
      content: [{ type: 'text', text: 'The sum is 5.' }],
    });
    // The second upstream request carried the tool result from this process.
    expect(JSON.stringify(upstream.requests.at(-1)?.body)).toContain('"role":"tool"');
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(JSON.stringify(events)).not.toContain(UPSTREAM_KEY);
    expect(process.env.UPSTREAM_KEY).toBeUndefined();
  });

  it('keeps the error class and retryable across the process boundary; the core retries it', async () => {
    const rateLimited: SseScript = {
      status: 429,
      headers: { 'retry-after-ms': '5' },
      json: { error: { message: 'Rate limit reached', type: 'requests' } },
    };
    queue = [rateLimited, chatText(['Recovered.'])];
    const model = proxyModel({ url, token: PROXY_TOKEN });
    const events = await lastValueFrom(
      runAgent({ model, prompt: 'Hi', retryBackoff: { initialDelayMs: 1, jitter: 0 } }).pipe(toArray()),
    );
    const retry = events.find((e) => e.type === 'retry');
    expect(retry).toMatchObject({
      type: 'retry',
      attempt: 1,
      delayMs: 5,
      error: { name: 'RateLimitError', status: 429, retryable: true, retryAfterMs: 5 },
    });
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });

    queue = [rateLimited];
    const error = await lastValueFrom(model.stream({ messages: [userMessage('Hi')] })).catch(
      (e: unknown) => e,
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 5, provider: 'openai' });
  });

  it('unsubscribing in this process aborts the upstream call made by the child', async () => {
    queue = [{ events: [chatChunk({ role: 'assistant', content: 'Hel' })], after: 'stall' }];
    const before = upstream.requests.length;
    const model = proxyModel({ url, token: PROXY_TOKEN });
    await lastValueFrom(model.stream({ messages: [userMessage('Hi')] }).pipe(take(1)));
    const call = upstream.requests[before];
    await call?.closedByClient;
    expect(call?.clientClosed).toBe(true);
  });
});
