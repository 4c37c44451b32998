import type { Browser } from 'playwright-core';
import { exampleAGUIAgent } from './ag-ui-agent.js';
import { PAGES } from './pages.js';
import { launchChromium, servePage } from './browser-kit.test.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';

// An AG-UI front end (@ag-ui/client's HttpAgent, rendered with React) in Debian's Chromium,
// bundled with esbuild, against the example's rxagent AG-UI endpoint: the approval arrives as
// an interrupt, the page resumes the thread with the person's answer, the same run goes on.
jest.setTimeout(60_000);

let browser: Browser;
let server: { url: string; close(): Promise<void> };
const hubs = new RunHubs((prompt) => scriptedRun(prompt, 0));

beforeAll(async () => {
  browser = await launchChromium();
  server = await servePage(hubs, PAGES.agUI, { agUI: exampleAGUIAgent(5) });
});

afterAll(async () => {
  await browser?.close();
  hubs.stopAll();
  await server?.close();
});

describe('an AG-UI client (HttpAgent) in Chromium against the rxagent AG-UI endpoint', () => {
  it('shows the run, asks for the approval as an interrupt, and finishes the same run after the answer', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    // Every request of the page but the favicon (which the example does not serve) succeeds.
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(server.url);
    await page.fill('input[name=prompt]', 'What is an observable?');
    await page.click('button[type=submit]');

    await page.waitForSelector('[data-interrupt=call_delete_notes]');
    expect(await page.textContent('[data-call=call_look_up]')).toBe('observable: a value over time');
    expect(await page.textContent('[data-role=reasoning]')).toBe('The user asks about observables.');
    expect(await page.getAttribute('main', 'data-phase')).toBe('tool-executing');

    await page.click('[data-approve=call_delete_notes]');
    await page.waitForSelector('main[data-status=ready][data-stop=completed]');
    expect(errors).toEqual([]);
    expect(await page.textContent('[data-call=call_delete_notes]')).toBe('Deleted the notes on observables.');
    const texts = await page.locator('[data-role=assistant] [data-part=text]').allTextContents();
    expect(texts.at(-1)).toBe('You asked: "What is an observable?". An observable is a value over time.');
    expect(await page.locator('[data-interrupt]').count()).toBe(0);
    await page.close();
  });
});
