import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import type { ScriptedTiming } from './paced-model.js';
import { scriptedRunFactory } from './scripted-runs.js';

// Drives the real page in Debian's Chromium (headless) against a real server. The runs are
// scripted with short, seeded latencies so the whole file takes a few seconds.
jest.setTimeout(60_000);

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const TIMING: ScriptedTiming = { firstEventMs: [20, 60], deltaMs: [3, 8], toolMs: [150, 300] };
const WAIT = { timeout: 15_000 };

let dashboard: Dashboard;
let browser: Browser;
let page: Page;
const requests: string[] = [];

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the dashboard browser test needs it. ` +
        'Install it with `apt-get install -y chromium` (Debian package), then run the test again.',
    );
  }
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    modelFactory: scriptedRunFactory({ timing: TIMING, seed: 11 }),
  });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  page.on('request', (req) => requests.push(`${req.method()} ${new URL(req.url()).pathname}`));
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

/**
 * Records, in the page, every phase each card shows, the tools it showed (name and progress)
 * and whether text streamed. Plain JS as a string: the repo's type-check has no DOM lib.
 */
const WATCH_CARDS = `
  window.dash = { phases: {}, tools: {}, streamed: {} };
  new MutationObserver(function (records) {
    records.forEach(function (record) {
      var node = record.target.nodeType === 1 ? record.target : record.target.parentElement;
      var card = node && node.closest('.run');
      if (!card) return;
      var id = card.dataset.runId;
      var phases = window.dash.phases[id] = window.dash.phases[id] || [];
      if (phases[phases.length - 1] !== card.dataset.phase) phases.push(card.dataset.phase);
      var tools = window.dash.tools[id] = window.dash.tools[id] || [];
      card.querySelectorAll('li.tool').forEach(function (li) {
        var label = li.dataset.toolName + ':' + li.querySelector('.progress-label').textContent;
        if (tools.indexOf(label) < 0) tools.push(label);
      });
      if (card.querySelector('pre.stream').textContent) window.dash.streamed[id] = true;
    });
  }).observe(document.getElementById('runs'), { subtree: true, childList: true, characterData: true, attributes: true });
`;

function watched<T>(what: 'phases' | 'tools' | 'streamed', id: string): Promise<T> {
  return page.evaluate<T>(`window.dash.${what}[${JSON.stringify(id)}]`);
}

async function startFromPage(scenario: string, id: string): Promise<void> {
  await page.selectOption('#scenario', scenario);
  await page.click('#new-run button[type=submit]');
  await page.waitForSelector(`[data-run-id="${id}"]`, WAIT);
}

const card = (id: string) => `[data-run-id="${id}"]`;
const phasesOf = async (id: string) => (await watched<string[] | undefined>('phases', id)) ?? [];

/** True when `wanted` appears in `list` in this order (other values may come between). */
function inOrder(list: string[], wanted: string[]): boolean {
  let i = 0;
  for (const value of list) if (value === wanted[i]) i++;
  return i === wanted.length;
}

describe('dashboard in Chromium', () => {
  it('shows live runs, takes approvals and rejections, and aborts a run', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-connection="open"]', WAIT);
    await page.evaluate(WATCH_CARDS);

    await startFromPage('research', 'run-1');
    await startFromPage('change', 'run-2');
    await startFromPage('change', 'run-3');
    await startFromPage('long', 'run-4');
    await startFromPage('chat', 'run-5');

    // Two runs wait for a person; the others stream or work meanwhile.
    await page.waitForSelector(`${card('run-2')} li.approval button[data-action="approve"]`, WAIT);
    await page.waitForSelector(`${card('run-3')} li.approval button[data-action="reject"]`, WAIT);
    expect(await page.getAttribute(card('run-2'), 'data-awaiting')).toBe('true');
    expect(await page.textContent(`${card('run-2')} li.approval .name`)).toBe('write_file');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard.png'), fullPage: true });

    // The research run goes through the model and its tools to the end, live.
    await page.waitForSelector(`${card('run-1')}[data-phase="done"]`, WAIT);
    const research = await phasesOf('run-1');
    expect(
      inOrder(research, [
        'llm-in-flight',
        'tool-executing',
        'llm-in-flight',
        'tool-executing',
        'llm-in-flight',
        'done',
      ]),
    ).toBe(true);
    const tools = (await watched<string[] | undefined>('tools', 'run-1')) ?? [];
    expect(tools.some((t) => t.startsWith('search_docs:') && /\d\/4/.test(t))).toBe(true);
    expect(tools.some((t) => t.startsWith('read_file:'))).toBe(true);
    expect(await watched<boolean>('streamed', 'run-1')).toBe(true);
    expect(await page.getAttribute(card('run-1'), 'data-stop-reason')).toBe('completed');
    expect(await page.textContent(`${card('run-1')} .answer`)).toContain('retried by the core');

    // Approve: the approval goes away, the run moves on to its next model call and finishes.
    const before = (await phasesOf('run-2')).length;
    await page.click(`${card('run-2')} li.approval button[data-action="approve"]`);
    await page.waitForSelector(`${card('run-2')} li.approval`, { ...WAIT, state: 'detached' });
    await page.waitForSelector(
      `${card('run-2')} ol.log li[data-event-type="approval-end"]:has-text("approved write_file")`,
      WAIT,
    );
    await page.waitForSelector(`${card('run-2')}[data-phase="done"]`, WAIT);
    const after = (await phasesOf('run-2')).slice(before);
    expect(inOrder(after, ['llm-in-flight', 'tool-executing', 'llm-in-flight', 'done'])).toBe(true);
    expect(await page.getAttribute(card('run-2'), 'data-stop-reason')).toBe('completed');

    // Reject with a reason: the run stops, and says why.
    await page.fill(`${card('run-3')} li.approval input.reason`, 'not in this sprint');
    await page.click(`${card('run-3')} li.approval button[data-action="reject"]`);
    await page.waitForSelector(`${card('run-3')} li.approval`, { ...WAIT, state: 'detached' });
    await page.waitForSelector(
      `${card('run-3')} ol.log li[data-event-type="approval-end"]:has-text("rejected write_file: not in this sprint")`,
      WAIT,
    );
    await page.waitForSelector(`${card('run-3')}[data-phase="done"][data-stop-reason="rejected"]`, WAIT);

    // Abort the long run (streaming, or waiting for its approval): it is cancelled.
    expect(await page.getAttribute(card('run-4'), 'data-phase')).toMatch(
      /^(llm-in-flight|tool-executing|step-finished)$/,
    );
    await page.click(`${card('run-4')} button[data-action="abort"]`);
    await page.waitForSelector(`${card('run-4')}[data-phase="cancelled"]`, WAIT);
    expect(await page.getAttribute(card('run-4'), 'data-stop-reason')).toBe('user-requested');
    expect(await page.isDisabled(`${card('run-4')} button[data-action="abort"]`)).toBe(true);

    await page.waitForSelector(`${card('run-5')}[data-phase="done"]`, WAIT);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-final.png'), fullPage: true });

    // Everything came over the one event stream: the page never polled.
    expect(requests.filter((r) => r.startsWith('GET'))).toEqual(['GET /', 'GET /events']);
    expect(requests.filter((r) => r.startsWith('POST'))).toEqual([
      'POST /runs',
      'POST /runs',
      'POST /runs',
      'POST /runs',
      'POST /runs',
      'POST /runs/run-2/approvals/' + (await lastToolCallId('run-2')),
      'POST /runs/run-3/approvals/' + (await lastToolCallId('run-3')),
      'POST /runs/run-4/abort',
    ]);
  });
});

/** The id of the write_file call a run asked approval for (from the server's transcript). */
async function lastToolCallId(id: string): Promise<string> {
  const agent = dashboard.registry.get(id)?.agent;
  const state = agent?.state$.value;
  for (const message of state?.messages ?? []) {
    if (message.role === 'tool' && message.toolName === 'write_file') return message.toolCallId;
  }
  return '(none)';
}
