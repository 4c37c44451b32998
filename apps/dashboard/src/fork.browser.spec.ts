import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import type { ScriptedTiming } from './paced-model.js';
import { scriptedRunFactory } from './scripted-runs.js';
import { launchChromium, RECORD_CSP_VIOLATIONS } from './chromium-kit.test.js';

// Fork here and Compare in Debian's Chromium against a real server: a scripted research run,
// "Fork here" on its search_docs row, the result edited in the editor, the fork's card live to
// its end with its lineage, then "Compare with parent": both transcripts side by side, the
// edited result marked as where they diverge. Waits are on the DOM, never on a timer.
jest.setTimeout(60_000);

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const TIMING: ScriptedTiming = { firstEventMs: [20, 60], deltaMs: [3, 8], toolMs: [150, 300] };
const WAIT = { timeout: 15_000 };
const EDITED = '0 matches for "retry backoff" <b>nothing</b>';

let dashboard: Dashboard;
let browser: Browser;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    throttleMs: 20,
    modelFactory: scriptedRunFactory({ timing: TIMING, seed: 5 }),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  page.on('request', (req) => requests.push(`${req.method()} ${new URL(req.url()).pathname}`));
  await page.addInitScript(RECORD_CSP_VIOLATIONS);
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

const card = (id: string) => `[data-run-id="${id}"]`;

describe('Fork here and Compare in Chromium', () => {
  it('forks a finished run at an edited tool result, shows the fork live, and compares the two', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-connection="open"]', WAIT);
    await page.selectOption('#scenario', 'research');
    await page.click('#new-run button[type=submit]');
    await page.waitForSelector(`${card('run-1')}[data-phase="done"][data-forkable="true"]`, WAIT);

    // The timeline of the finished run: "Fork here" on each finished tool and model row.
    await page.click(`${card('run-1')} .timeline-toggle`);
    const searchRow = `${card('run-1')} li.tl-row[data-kind="tool"]:has(.tl-label:has-text("search_docs"))`;
    await page.waitForSelector(`${searchRow} button.fork-here`, WAIT);
    expect(await page.$$eval(`${card('run-1')} li.tl-row button.fork-here`, (b) => b.length)).toBe(6);
    const toolCallId = await page.getAttribute(`${searchRow} button.fork-here`, 'data-tool-call-id');
    expect(toolCallId).toBeTruthy();

    // The editor opens prefilled with that result; edit it and start the fork.
    await page.click(`${searchRow} button.fork-here`);
    const editor = `${card('run-1')} form.fork-editor[data-state="ready"]`;
    await page.waitForSelector(editor, WAIT);
    expect(await page.inputValue(`${editor} textarea.fork-text`)).toBe(
      '3 matches for "retry backoff": docs/retries.md, docs/state.md, README.md',
    );
    expect(await page.textContent(`${editor} .fork-title`)).toContain(`the result of ${toolCallId ?? ''}`);
    await page.fill(`${editor} textarea.fork-text`, EDITED);
    await page.click(`${editor} button.fork-submit`);

    // The fork is a new card, live to its end, naming its parent; the editor closes.
    await page.waitForSelector(`${card('run-2')}[data-phase="done"]`, WAIT);
    await page.waitForSelector(`${card('run-1')} form.fork-editor`, { ...WAIT, state: 'hidden' });
    expect(await page.textContent(`${card('run-2')} .label`)).toBe('research #1 · fork at step 1');
    expect(await page.textContent(`${card('run-2')} .lineage`)).toContain(
      `Forked from run-1 (research #1) at step 1 · edited the result of ${toolCallId ?? ''}`,
    );
    expect(await page.getAttribute(`${card('run-2')}`, 'data-stop-reason')).toBe('completed');
    expect(await page.textContent(`${card('run-2')} .answer`)).toContain('retried by the core');
    // The header's Compare form lists both recorded runs.
    await page.waitForSelector('#compare-runs:not([hidden])', WAIT);
    expect(await page.$$eval('#compare-runs select[name=b] option', (o) => o.length)).toBe(2);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'fork-here.png'), fullPage: true });
    expect(await page.evaluate('window.cspViolations')).toEqual([]);

    // Compare with parent: side by side, the edited result marked where they diverge.
    await page.click(`${card('run-2')} a.compare-parent`);
    await page.waitForSelector('body.compare-page', WAIT);
    expect(new URL(page.url()).search).toBe('?a=run-1&b=run-2');
    const marked = (side: 'a' | 'b') => `.side[data-side="${side}"] li.msg.diff-changed.first-divergence`;
    expect(await page.textContent(`${marked('b')} pre`)).toBe(EDITED);
    expect(await page.textContent(`${marked('a')} pre`)).toBe(
      '3 matches for "retry backoff": docs/retries.md, docs/state.md, README.md',
    );
    expect(await page.getAttribute(marked('b'), 'data-index')).toBe(
      await page.getAttribute(marked('a'), 'data-index'),
    );
    expect(await page.$$eval('li.msg.diff-changed', (items) => items.length)).toBe(2); // only the edited result
    // Highlighted: the marked message has a coloured border, the others none.
    const border = (selector: string) =>
      page.evaluate<string>(
        `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).borderLeftColor`,
      );
    expect(await border(marked('b'))).not.toBe(await border('.side[data-side="b"] li.msg.same'));
    expect(await page.textContent('.fork-point')).toBe(
      'b is a fork of a at step 1 (after event ' +
        String(dashboard.forks.logOf('run-2').header.lineage?.forkedAt.seq) +
        ')',
    );
    expect(await page.textContent('.first-request')).toContain('messages');
    expect(await page.textContent('.usage')).toMatch(/^a \d+ in \/ \d+ out, b \d+ in \/ \d+ out/);
    // The edit is text, never markup.
    expect(await page.$$eval(`${marked('b')} b`, (nodes) => nodes.length)).toBe(0);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'fork-compare.png'), fullPage: true });
    expect(await page.evaluate('window.cspViolations')).toEqual([]);

    // The header form compares any two recorded runs.
    await page.goto(dashboard.url);
    await page.waitForSelector('#compare-runs:not([hidden])', WAIT);
    await page.selectOption('#compare-runs select[name=a]', 'run-2');
    await page.selectOption('#compare-runs select[name=b]', 'run-1');
    await page.click('#compare-runs button[type=submit]');
    await page.waitForSelector('body.compare-page', WAIT);
    expect(new URL(page.url()).search).toBe('?a=run-2&b=run-1');
    expect(await page.$$eval('li.msg.diff-changed', (items) => items.length)).toBe(2);
    expect(requests).toContain('POST /runs/run-1/fork');
  });
});
