import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { durableRuns, startWorker, type DurableRuns, type DurableWorker } from '@rxagent/durable';
import { startPostgres, type PostgresServer } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import { appendTools, linesOf, planModel } from './durable-fixture.test.js';
import { launchChromium, RECORD_CSP_VIOLATIONS } from './chromium-kit.test.js';

// Durable runs in the real page (Debian's Chromium): a real PostgreSQL, a durable worker in
// this process, runs started with the durable client (as any other process would start them),
// attached from the page's form, and approved, rejected and aborted with the page's buttons.
jest.setTimeout(120_000);

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const WAIT = { timeout: 30_000 };
const TOOLS = ['append_line', 'guarded_append'];

let pg: PostgresServer;
let worker: DurableWorker;
let runs: DurableRuns;
let dashboard: Dashboard;
let browser: Browser;
let page: Page;
let dir: string;
let file: string;
const requests: string[] = [];

beforeAll(async () => {
  pg = await startPostgres();
  dir = mkdtempSync(path.join(tmpdir(), 'rxagent-dashboard-durable-'));
  file = path.join(dir, 'lines.txt');
  worker = await startWorker({
    databaseUrl: pg.url,
    // Paced so the page has time to show each phase: ~40 ms a word, tools take 300 ms.
    models: { plan: planModel({ lines: 3, approvalEvery: 2, latencyMs: 40 }) },
    tools: appendTools(file, 300),
    pollIntervalMs: 50,
  });
  runs = await durableRuns({ databaseUrl: pg.url, pollIntervalMs: 50 });
  dashboard = await startDashboard({ durable: runs, throttleMs: 20 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on('request', (req) => requests.push(`${req.method()} ${new URL(req.url()).pathname}`));
  await page.addInitScript(RECORD_CSP_VIOLATIONS);
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
  await runs?.close();
  await worker?.stop();
  await pg?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Records in the page every phase, tool and streamed text each card shows (plain JS: no DOM lib here). */
const WATCH_CARDS = `
  window.dash = { phases: {}, tools: {}, streamed: {}, log: {} };
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
        if (tools.indexOf(li.dataset.toolName) < 0) tools.push(li.dataset.toolName);
      });
      if (card.querySelector('pre.stream').textContent) window.dash.streamed[id] = true;
      var log = window.dash.log[id] = window.dash.log[id] || [];
      card.querySelectorAll('ol.log li').forEach(function (li) {
        var line = li.childNodes[1] ? li.childNodes[1].textContent : '';
        if (log.indexOf(line) < 0) log.push(line);
      });
    });
  }).observe(document.getElementById('runs'), { subtree: true, childList: true, characterData: true, attributes: true });
`;

const card = (id: string) => `[data-run-id="${id}"]`;
const watched = <T>(what: 'phases' | 'tools' | 'streamed' | 'log', id: string) =>
  page.evaluate<T>(`window.dash.${what}[${JSON.stringify(id)}]`);

/** Types the durable run's id in the page's form; returns the id of the card that appears. */
async function attachFromPage(runId: string): Promise<string> {
  await page.fill('#durable-run-id', runId);
  await page.click('#attach-durable button[type=submit]');
  const label = await page.waitForSelector(`.run .label:text-is("durable ${runId}")`, WAIT);
  type Node = { closest(selector: string): { dataset: Record<string, string> } };
  return label.evaluate((node) => (node as unknown as Node).closest('.run').dataset.runId as string);
}

function inOrder(list: string[], wanted: string[]): boolean {
  let i = 0;
  for (const value of list) if (value === wanted[i]) i++;
  return i === wanted.length;
}

describe('durable runs in Chromium', () => {
  it('shows a durable run live, and Approve / Reject / Abort from the page reach it', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-connection="open"]', WAIT);
    await page.waitForSelector('#attach-durable:not([hidden])', WAIT);
    await page.evaluate(WATCH_CARDS);

    const approved = await runs.startRun({
      runId: 'page-approves',
      model: 'plan',
      tools: TOOLS,
      prompt: 'Append three lines.',
    });
    const rejected = await runs.startRun({
      runId: 'page-rejects',
      model: 'plan',
      tools: TOOLS,
      prompt: 'Append three lines.',
    });
    const aborted = await runs.startRun({
      runId: 'page-aborts',
      model: 'plan',
      tools: TOOLS,
      prompt: 'Append three lines.',
    });
    const a = await attachFromPage(approved);
    const r = await attachFromPage(rejected);
    const x = await attachFromPage(aborted);

    // The first step's model call streams, then its tool runs, then the guarded call waits.
    const approveButton = `${card(a)} li.approval[data-tool-call-id="call_2"] button[data-action="approve"]`;
    await page.waitForSelector(approveButton, WAIT);
    expect(await page.textContent(`${card(a)} li.approval .name`)).toBe('guarded_append');
    expect(await page.textContent(`${card(a)} li.approval pre[data-argument="line"]`)).toBe('line-2');
    expect(await page.getAttribute(card(a), 'data-awaiting')).toBe('true');
    expect(inOrder((await watched<string[]>('phases', a)) ?? [], ['llm-in-flight', 'tool-executing'])).toBe(
      true,
    );
    expect(await watched<string[]>('tools', a)).toEqual(
      expect.arrayContaining(['append_line', 'guarded_append']),
    );
    expect(await watched<boolean>('streamed', a)).toBe(true);
    expect(await watched<string[]>('log', a)).toEqual(
      expect.arrayContaining([
        '▶ append_line {"line":"line-1"}',
        '✓ append_line',
        '◆ guarded_append waits for approval',
      ]),
    );
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'durable-runs.png'), fullPage: true });

    // Approve: the decision goes to the durable run (in the worker), which appends line 2 and goes on.
    await page.click(approveButton);
    await page.waitForSelector(`${card(a)} li.approval`, { ...WAIT, state: 'detached' });
    await page.waitForSelector(`${card(a)}[data-phase="done"][data-stop-reason="completed"]`, WAIT);
    expect(await page.textContent(`${card(a)} .answer`)).toBe('Done: 3 lines appended.');
    expect(await watched<string[]>('log', a)).toEqual(
      expect.arrayContaining(['approved guarded_append', '✓ guarded_append', 'stopped: completed']),
    );
    const approvedResult = await runs.runResult(approved);
    expect(approvedResult.reason).toBe('completed');
    expect(linesOf(file, approved).map((l) => l.split(' ')[2])).toEqual(['line-1', 'line-2', 'line-3']);

    // Reject with a reason: the model reads it; line 2 is never appended.
    await page.waitForSelector(`${card(r)} li.approval button[data-action="reject"]`, WAIT);
    await page.fill(`${card(r)} li.approval input.reason`, 'not line two');
    await page.click(`${card(r)} li.approval button[data-action="reject"]`);
    await page.waitForSelector(
      `${card(r)} ol.log li:has-text("rejected guarded_append: not line two")`,
      WAIT,
    );
    const rejectedResult = await runs.runResult(rejected);
    const toolResult = rejectedResult.messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_2');
    expect(JSON.stringify(toolResult)).toContain('not line two');
    expect(linesOf(file, rejected).map((l) => l.split(' ')[2])).not.toContain('line-2');
    await page.waitForSelector(`${card(r)}[data-phase="done"]`, WAIT);

    // Abort: the durable run is cancelled in the worker.
    await page.waitForSelector(`${card(x)}[data-awaiting="true"]`, WAIT);
    await page.click(`${card(x)} button[data-action="abort"]`);
    await page.waitForSelector(`${card(x)}[data-phase="cancelled"]`, WAIT);
    expect(await page.getAttribute(`${card(x)} .stop`, 'class')).toBe('stop'); // no error shown
    expect(await runs.status(aborted)).toBe('CANCELLED');
    expect(linesOf(file, aborted).map((l) => l.split(' ')[2])).toEqual(['line-1']);
    await page.screenshot({ path: path.join(SCREENSHOTS, 'durable-runs-final.png'), fullPage: true });

    // Under the CSP, over the one event stream, with only these requests.
    expect(await page.evaluate('window.cspViolations')).toEqual([]);
    expect(requests.filter((q) => q.startsWith('GET')).sort()).toEqual([
      'GET /',
      'GET /events',
      'GET /fork.css',
      'GET /fork.js',
      'GET /page.css',
      'GET /page.js',
      'GET /timeline.css',
      'GET /timeline.js',
    ]);
    expect(requests.filter((q) => q.startsWith('POST'))).toEqual([
      'POST /durable-runs',
      'POST /durable-runs',
      'POST /durable-runs',
      `POST /runs/${a}/approvals/call_2`,
      `POST /runs/${r}/approvals/call_2`,
      `POST /runs/${x}/abort`,
    ]);
  });
});
