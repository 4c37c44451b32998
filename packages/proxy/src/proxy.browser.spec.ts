import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseScript, type SseTestServer } from '@rxagent/testing';
import { serveModel, type ModelServer } from './serve-model.js';
import {
  bundle,
  chatChunk,
  chatText,
  chatToolCall,
  PROXY_TOKEN,
  UPSTREAM_KEY,
} from './test-support/proxy-fixtures.test.js';

// A page in Debian's Chromium runs runAgent with proxyModel against serveModel (another
// origin, CORS), which holds the OpenAI key and calls the local SSE server.
jest.setTimeout(90_000);

const CHROMIUM = '/usr/bin/chromium';
let upstream: SseTestServer;
let proxy: ModelServer;
let site: Server;
let siteUrl: string;
let browser: Browser;
let page: Page;
let queue: SseScript[] = [];
const received: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: install Debian's chromium (node scripts/ensure-chromium.mjs).`,
    );
  }
  upstream = await startSseTestServer(
    () => queue.shift() ?? { status: 500, json: { error: { message: 'no script left' } } },
  );
  const script = await bundle(path.join(__dirname, 'test-support', 'browser-page.test.ts'), 'browser');
  site = createServer((req, res) => {
    if (req.url === '/app.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>proxy</title><script src="/app.js"></script>');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const address = site.address();
  siteUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  proxy = await serveModel(openai('gpt-test', { apiKey: UPSTREAM_KEY, baseURL: `${upstream.url}/v1` }), {
    token: PROXY_TOKEN,
    allowOrigins: [siteUrl],
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
  page = await browser.newPage();
  page.on('response', (response) => {
    void response.text().then(
      (text) => received.push(text),
      () => undefined,
    );
  });
  await page.goto(siteUrl);
  await page.waitForFunction(
    () => typeof (globalThis as unknown as { runWithProxy?: unknown }).runWithProxy === 'function',
  );
});

afterAll(async () => {
  await browser?.close();
  await proxy?.close();
  await upstream?.close();
  await new Promise((resolve) => site?.close(resolve));
});

describe('proxyModel in the browser', () => {
  it('runs an agent with a tool in the page; the key never reaches it', async () => {
    queue = [chatToolCall('call_1', 'add', '{"a":2,"b":3}'), chatText(['It is ', '5.'])];
    const events = (await page.evaluate(
      ([url, token]) =>
        (globalThis as unknown as { runWithProxy: (u: string, t: string) => Promise<unknown> }).runWithProxy(
          url!,
          token!,
        ),
      [proxy.url, PROXY_TOKEN],
    )) as {
      type: string;
      result?: unknown;
      messages?: { role: string; content: unknown; provider?: string }[];
    }[];
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({
      result: { content: [{ type: 'text', text: '5' }], isError: false },
    });
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(end?.messages?.at(-1)).toMatchObject({
      role: 'assistant',
      provider: 'openai',
      content: [{ type: 'text', text: 'It is 5.' }],
    });
    expect(upstream.requests.at(-1)?.headers.authorization).toBe(`Bearer ${UPSTREAM_KEY}`);
    expect(upstream.requests.at(-1)?.headers.origin).toBeUndefined();
    expect(received.length).toBeGreaterThan(0);
    expect(received.join('\n')).not.toContain(UPSTREAM_KEY);
    expect(await page.content()).not.toContain(UPSTREAM_KEY);
  });

  it('gets typed errors in the page, retryable kept', async () => {
    queue = [
      { status: 429, headers: { 'retry-after-ms': '700' }, json: { error: { message: 'Slow down' } } },
    ];
    const error = await page.evaluate(
      ([url, token]) =>
        (
          globalThis as unknown as { errorWithProxy: (u: string, t: string) => Promise<unknown> }
        ).errorWithProxy(url!, token!),
      [proxy.url, PROXY_TOKEN],
    );
    expect(error).toEqual({ isRateLimit: true, name: 'RateLimitError', retryable: true, retryAfterMs: 700 });
  });

  it('unsubscribing in the page aborts the upstream call', async () => {
    queue = [{ events: [chatChunk({ role: 'assistant', content: 'Hel' })], after: 'stall' }];
    const before = upstream.requests.length;
    const first = await page.evaluate(
      ([url, token]) =>
        (
          globalThis as unknown as { firstDeltaWithProxy: (u: string, t: string) => Promise<unknown> }
        ).firstDeltaWithProxy(url!, token!),
      [proxy.url, PROXY_TOKEN],
    );
    expect(first).toEqual([{ type: 'text-delta', index: 0, text: 'Hel' }]);
    const call = upstream.requests[before];
    await call?.closedByClient;
    expect(call?.clientClosed).toBe(true);
  });
});
