import { fromSSE } from '@rxagent/core/streams';
import { withState, type AgentEvent, type AgentState } from '@rxagent/core';
import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
import { join } from 'node:path';
import { bundlePageScript } from './example-page.js';
import { startHonoServer } from './hono-app.js';
import { startNodeServer } from './node-server.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';

/** Runs whose server-side state the test can read. */
function trackedHubs(): { hubs: RunHubs; states: AgentState[] } {
  const states: AgentState[] = [];
  const hubs = new RunHubs((prompt) => {
    const { events$, state$ } = withState(scriptedRun(prompt, 5));
    return events$.pipe(tap({ finalize: () => states.push(state$.value) }));
  });
  return { hubs, states };
}

async function createRun(base: string, prompt: string): Promise<string> {
  const response = await fetch(`${base}/runs`, { method: 'POST', body: JSON.stringify({ prompt }) });
  expect(response.status).toBe(201);
  return ((await response.json()) as { events: string }).events;
}

// The page's script, bundled once for the file (esbuild).
let pageScript: Promise<string>;
beforeAll(() => {
  pageScript = bundlePageScript(join(__dirname, 'browser', 'page.ts'));
});

const servers = [
  ['a plain Node server', startNodeServer],
  ['a Hono app on Node', startHonoServer],
] as const;

describe.each(servers)('the example on %s', (_name, start) => {
  it('streams a run to two clients, one joining late, both folding the server state', async () => {
    const { hubs, states } = trackedHubs();
    const server = await start(hubs);
    try {
      const url = `${server.url}${await createRun(server.url, 'what is an observable?')}`;
      const first = withState(fromSSE(url));
      const events$: Observable<AgentEvent[]> = first.events$.pipe(toArray());
      const firstEvents = lastValueFrom(events$);
      // The second client joins once the first has seen the model's answer start.
      await new Promise<void>((resolve) => {
        first.state$.subscribe((s) => s.step === 2 && resolve());
      });
      const late = withState(fromSSE(url));
      const lateEvents = await lastValueFrom(late.events$.pipe(toArray()));
      expect(await firstEvents).toEqual(lateEvents);
      const serverState = states[0] as AgentState;
      for (const client of [first, late]) {
        expect(client.state$.value.phase).toBe('done');
        expect(client.state$.value.messages).toEqual(serverState.messages);
        expect(client.state$.value.usage).toEqual(serverState.usage);
      }
      expect(late.state$.value.messages.map((m) => m.role)).toEqual([
        'user',
        'assistant',
        'tool',
        'assistant',
      ]);
    } finally {
      hubs.stopAll();
      await server.close();
    }
  });

  it('answers 400 to a request without a prompt and 404 to an unknown run', async () => {
    const { hubs } = trackedHubs();
    const server = await start(hubs);
    try {
      const bad = await fetch(`${server.url}/runs`, { method: 'POST', body: '{}' });
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: string }).error).toContain('prompt');
      const missing = await fetch(`${server.url}/runs/run-9/events`);
      expect(missing.status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('serves its page at / and the page script at /page.js', async () => {
    const { hubs } = trackedHubs();
    const server = await start(hubs, { pageScript });
    try {
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('<form id="run">');
      expect(html).toContain('<script src="/page.js" defer></script>');
      const script = await fetch(`${server.url}/page.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(await script.text()).toContain('last-event-id'); // fromSSE, bundled in
    } finally {
      await server.close();
    }
  });
});
