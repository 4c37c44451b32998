import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { withState, type AgentState } from '@rxagent/core';
import { build } from 'esbuild';
import type { Browser } from 'playwright-core';
import { tap } from 'rxjs';
import type { WatchedRun } from './browser/watch-run.js';
import { nodeRunRoutes } from './node-server.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';
import { launchChromium } from './browser-kit.test.js';

// fromSSE and withState run in Debian's Chromium (headless), bundled from the sources with
// esbuild, against the example's plain Node routes. The first event stream is cut after a few
// frames, as a network drop would: the page reconnects with Last-Event-ID and must fold the
// very state the server folded.
jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..', '..', '..');
const PAGE =
  '<!doctype html><meta charset="utf-8"><title>rxagent SSE</title><script src="/watch-run.js"></script>';

let browser: Browser;
let server: Server;
let base: string;
let bundle: string;
const states: AgentState[] = [];
const eventRequests: IncomingMessage[] = [];
const hubs = new RunHubs((prompt) => {
  const { events$, state$ } = withState(scriptedRun(prompt, 40));
  return events$.pipe(tap({ finalize: () => states.push(state$.value) }));
});

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(__dirname, 'browser', 'watch-run.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'chrome110',
    // The core's entries from its sources: `@rxagent/core` and its subpaths (`/streams`, …).
    plugins: [
      {
        name: 'rxagent-core-sources',
        setup(b) {
          b.onResolve({ filter: /^@rxagent\/core(\/[a-z]+)?$/ }, (args) => ({
            path: path.join(ROOT, 'packages/core/src', `${args.path.split('/')[2] ?? 'index'}.ts`),
          }));
        },
      },
    ],
    logLevel: 'silent',
  });
  bundle = (result.outputFiles[0] as { text: string }).text;
  const routes = nodeRunRoutes(hubs);
  server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
    if (req.url === '/watch-run.js') {
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
    }
    if (req.url?.endsWith('/events')) {
      eventRequests.push(req);
      if (eventRequests.length === 1) {
        // Cut the first stream after 6 frames: later frames are lost and the socket is destroyed
        // a moment later (once the 6 have reached the page), as on a network drop.
        const write = res.write.bind(res) as (chunk: Uint8Array) => boolean;
        let frames = 0;
        res.write = ((chunk: Uint8Array) => {
          if (++frames <= 6) return write(chunk);
          if (frames === 7) setTimeout(() => res.destroy(), 150);
          return true;
        }) as typeof res.write;
      }
    }
    if (!routes(req, res)) res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  hubs.stopAll();
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

describe('withState(fromSSE(url)) in Chromium', () => {
  it('folds the same state in the browser as on the server, across a dropped connection', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(base);
    const watched = await page.evaluate<WatchedRun>(`startAndWatch('What is an observable?')`);
    expect(errors).toEqual([]);
    expect(watched.error).toBeUndefined();
    const serverState = states[0] as AgentState;
    expect(watched.state?.phase).toBe('done');
    expect(watched.state?.stopReason).toBe('completed');
    expect(watched.state?.messages).toEqual(JSON.parse(JSON.stringify(serverState.messages)));
    expect(watched.state?.usage).toEqual(serverState.usage);
    expect(watched.state?.step).toBe(2);
    expect(watched.phases).toEqual(expect.arrayContaining(['llm-in-flight', 'tool-executing', 'done']));
    // The page reconnected once, after the 6th event, and got the 7th on: nothing twice or lost.
    expect(eventRequests).toHaveLength(2);
    expect(eventRequests[0]?.headers['last-event-id']).toBeUndefined();
    // Ids are `<runId>:<seq>` (the wire codec): the page resumes this run after its 6th event.
    expect(eventRequests[1]?.headers['last-event-id']).toBe(`${serverState.runId}:6`);
    await page.close();
  });
});
