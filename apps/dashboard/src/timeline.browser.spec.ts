import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { map, timer } from 'rxjs';
import { z } from 'zod';
import { Agent, RateLimitError, tool } from '@rxagent/core';
import { errorTurn, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import { launchChromium } from './chromium-kit.test.js';

// The run timeline in Debian's Chromium against a real server: a finished multi-tool run
// (a retried model call, two tools side by side, one waiting for approval), its rows and bar
// widths read from the DOM, the time axis and the columns as wide as their text, the cost of a
// run that priced no call, a row clicked open, and a screenshot kept as a test artifact.
jest.setTimeout(60_000);

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const WAIT = { timeout: 15_000 };
const LONG_RESULT = Array.from(
  { length: 120 },
  (_, i) => `line ${i + 1} of notes.md: the quick brown fox`,
).join('\n');

let dashboard: Dashboard;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dashboard = await startDashboard({ host: '127.0.0.1', port: 0, throttleMs: 20 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

function multiToolAgent(): Agent {
  const slow = (
    name: string,
    ms: number,
    result: (args: { path: string }) => string,
    needsApproval = false,
  ) =>
    tool({
      name,
      description: name,
      parameters: z.object({ path: z.string() }),
      needsApproval,
      execute: (args) => timer(ms).pipe(map(() => result(args))),
    });
  const model = scriptedModel(
    [
      errorTurn(new RateLimitError('Too many requests', { status: 429 })),
      toolCallTurn(
        [
          { name: 'search_docs', args: { path: 'docs/' }, id: 'call_search' },
          { name: 'read_file', args: { path: 'notes.md' }, id: 'call_read' },
          { name: 'write_file', args: { path: 'summary.md' }, id: 'call_write' },
        ],
        { text: 'Let me look.', usage: { inputTokens: 1200, outputTokens: 80 } },
      ),
      textTurn('The notes are about a fox. Summary written.', {
        usage: { inputTokens: 2600, outputTokens: 40 },
      }),
    ],
    { latency: { firstMs: 120, perEventMs: 15 } },
  );
  // No prices: a scripted model's calls are unpriced, so the run's cost is unknown.
  return new Agent({
    model,
    retryBackoff: { initialDelayMs: 150, jitter: 0 },
    tools: [
      slow('search_docs', 250, () => '3 matches'),
      slow('read_file', 600, () => LONG_RESULT),
      slow('write_file', 100, () => 'written', true),
    ],
  });
}

const timelineOf = (id: string) => `[data-run-id="${id}"] section.timeline`;

interface RowBox {
  id: string;
  kind: string;
  status: string;
  startMs: number;
  endMs: number;
  barLeft: number;
  barWidth: number;
  trackWidth: number;
  trackLeft: number;
  phases: { phase: string; width: number }[];
  marks: string[];
}

/** A tick's label, as the page writes it. */
const tickText = (ms: number) => (ms === 0 ? '0' : ms >= 1000 ? `${ms / 1000} s` : `${ms} ms`);

/** Each label and figure cell: its column's width, and its text's (with its indent). */
function cells(id: string): Promise<{ kind: string; column: number; text: number; scroll: number }[]> {
  return page.evaluate(`Array.from(document.querySelectorAll(${JSON.stringify(
    `${timelineOf(id)} .tl-label, ${timelineOf(id)} .tl-meta`,
  )})).map(function (cell) {
    var range = document.createRange();
    range.selectNodeContents(cell);
    return { kind: cell.className, column: cell.getBoundingClientRect().width, scroll: cell.scrollWidth - cell.clientWidth,
      text: range.getBoundingClientRect().width + parseFloat(getComputedStyle(cell).paddingLeft) };
  })`);
}

function rowBoxes(id: string): Promise<RowBox[]> {
  return page.evaluate(`Array.from(document.querySelectorAll(${JSON.stringify(`${timelineOf(id)} .tl-row`)})).map(function (li) {
    var track = li.querySelector('.tl-track').getBoundingClientRect();
    var bar = li.querySelector('.tl-bar').getBoundingClientRect();
    return {
      id: li.dataset.rowId, kind: li.dataset.kind, status: li.dataset.status,
      startMs: Number(li.dataset.startMs), endMs: Number(li.dataset.endMs),
      barLeft: bar.left - track.left, barWidth: bar.width, trackWidth: track.width, trackLeft: track.left,
      phases: Array.from(li.querySelectorAll('.tl-seg')).map(function (s) {
        return { phase: s.dataset.phase, width: s.getBoundingClientRect().width };
      }),
      marks: Array.from(li.querySelectorAll('.tl-mark')).map(function (m) { return m.dataset.kind; }),
    };
  })`);
}

describe('the run timeline in Chromium', () => {
  it('draws a finished multi-tool run as a waterfall, live and after the end, and shows a step in full', async () => {
    const agent = multiToolAgent();
    const id = dashboard.addAgent(agent, 'multi-tool');
    await page.goto(dashboard.url);
    await page.waitForSelector(`[data-run-id="${id}"] .timeline-toggle`, WAIT);
    await page.click(`[data-run-id="${id}"] .timeline-toggle`);
    const done = agent.prompt('Summarize the notes');

    // Live: while write_file waits for approval the timeline shows it waiting, the run not ended.
    await page.waitForSelector(
      `${timelineOf(id)} .tl-row[data-row-id="tool-call_write"] .tl-seg[data-phase="approval"]`,
      WAIT,
    );
    expect(await page.getAttribute(timelineOf(id), 'data-ended')).toBe('false');
    // Live: the waiting call's bar grows with the clock while nothing is pushed.
    const writeRow = `${timelineOf(id)} .tl-row[data-row-id="tool-call_write"]`;
    const waitingSince = Number(await page.getAttribute(writeRow, 'data-end-ms'));
    let grownTo = waitingSince;
    for (let tries = 0; tries < 50 && grownTo <= waitingSince + 300; tries++) {
      await page.waitForTimeout(100);
      grownTo = Number(await page.getAttribute(writeRow, 'data-end-ms'));
    }
    expect(grownTo).toBeGreaterThan(waitingSince + 300);
    expect(await page.getAttribute(writeRow, 'data-status')).toBe('running');
    await page.waitForSelector(`[data-run-id="${id}"] .approval button.approve`, WAIT);
    await page.click(`[data-run-id="${id}"] .approval button.approve`);
    const result = await done;
    expect(result.reason).toBe('completed');

    // Kept after the end.
    await page.waitForSelector(`${timelineOf(id)}[data-ended="true"]`, WAIT);
    const rows = await rowBoxes(id);
    expect(rows.map((r) => [r.id, r.kind, r.status])).toEqual([
      ['model-1', 'model', 'ok'],
      ['tool-call_search', 'tool', 'ok'],
      ['tool-call_read', 'tool', 'ok'],
      ['tool-call_write', 'tool', 'ok'],
      ['model-2', 'model', 'ok'],
    ]);
    const total = Number(await page.getAttribute(timelineOf(id), 'data-total-ms'));
    for (const row of rows) {
      // Each bar is placed and sized in proportion to its time (1.5 px of rounding; 2 px minimum).
      expect(Math.abs(row.barLeft - (row.startMs / total) * row.trackWidth)).toBeLessThan(1.5);
      const expected = Math.max(2, ((row.endMs - row.startMs) / total) * row.trackWidth);
      expect(Math.abs(row.barWidth - expected)).toBeLessThan(1.5);
    }
    const byId = new Map(rows.map((r) => [r.id, r]));
    const [model1, search, read, write, model2] = [
      'model-1',
      'tool-call_search',
      'tool-call_read',
      'tool-call_write',
      'model-2',
    ].map((rowId) => byId.get(rowId) as RowBox);
    // The retried call: a retry mark and backoff, then waiting for and streaming its answer.
    expect(model1?.marks).toEqual(['retry']);
    expect(model1?.phases.map((p) => p.phase)).toEqual([
      'waiting-first-token',
      'retry',
      'waiting-first-token',
      'streaming',
    ]);
    // Parallel tools side by side: they start together and overlap; the slow one is longer.
    expect((search?.startMs ?? 0) < (read?.endMs ?? 0) && (read?.startMs ?? 0) < (search?.endMs ?? 0)).toBe(
      true,
    );
    expect((read?.barWidth ?? 0) > (search?.barWidth ?? 0) * 1.3).toBe(true);
    // Approval waiting shown as such, then executing.
    expect(write?.phases.map((p) => p.phase)).toEqual(['approval', 'executing']);
    expect(write?.marks).toEqual(['approved']);
    expect((model2?.startMs ?? 0) >= (read?.endMs ?? Infinity)).toBe(true);

    // Tokens per step and in total; no call was priced, so no cost but an estimate, said to be one.
    const metas = await page.locator(`${timelineOf(id)} .tl-meta`).allTextContents();
    expect(metas[0]).toMatch(/TTFT \d+ ms · 1,280 tok$/);
    expect(metas[4]).toMatch(/2,640 tok$/);
    const totals = (await page.textContent(`${timelineOf(id)} .tl-totals`)) ?? '';
    expect(totals).toContain('3,920 tokens (3,800 in / 120 out)');
    // 3,800 input and 120 output tokens at gpt-4o-mini's $0.15 / $0.60 per million.
    expect(totals).toContain('cost unknown (≈ $0.000642 priced as gpt-4o-mini)');
    expect(await page.textContent(`${timelineOf(id)} .tl-cost`)).toBe('cost unknown');
    expect(await page.getAttribute(`${timelineOf(id)} .tl-estimate`, 'title')).toBe(
      'An estimate, not the cost of the run: no call of this run was priced (a scripted model has no ' +
        'price), so its 3,920 tokens are counted at gpt-4o-mini list prices.',
    );
    // The card says the same: its tokens, and no cost.
    const stats = (await page.textContent(`[data-run-id="${id}"] .stats`)) ?? '';
    expect(stats).toContain('tokens 3,920 (3,800 in / 120 out)');
    expect(stats).not.toContain('cost');
    expect(totals).toContain('stopped: completed');

    // Nothing cut: each label and figure column is as wide as its widest text, and no wider.
    const measured = await cells(id);
    expect(measured).toHaveLength(rows.length * 2);
    for (const kind of ['tl-label', 'tl-meta']) {
      const column = measured.filter((c) => c.kind === kind);
      expect(column.every((c) => c.scroll === 0 && c.text <= c.column + 1)).toBe(true);
      const widest = Math.max(...column.map((c) => c.text));
      expect(Math.abs(widest - (column[0]?.column ?? 0))).toBeLessThan(2);
    }
    // A time axis over the bars: ticks from 0 every 1, 2 or 5 × 10^n ms, on the rows' scale.
    const ticks = await page.evaluate<{ ms: number; text: string; left: number; width: number }[]>(
      `Array.from(document.querySelectorAll(${JSON.stringify(`${timelineOf(id)} .tl-axis .tl-tick`)})).map(function (n) {
        var r = n.getBoundingClientRect();
        return { ms: Number(n.dataset.ms), text: n.textContent, left: r.left, width: r.width };
      })`,
    );
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    expect(ticks[0]).toMatchObject({ ms: 0, text: '0' });
    const step = ticks[1]?.ms ?? 0;
    expect(String(step)).toMatch(/^[125]0*$/);
    expect(total / step).toBeLessThan(12);
    expect(ticks.every((tick, i) => tick.ms === i * step && tick.ms <= total)).toBe(true);
    expect(ticks.every((tick) => tick.text === tickText(tick.ms))).toBe(true);
    const axis = await page.evaluate<{ left: number; width: number }>(
      `(function (r) { return { left: r.left, width: r.width }; })(document.querySelector(${JSON.stringify(
        `${timelineOf(id)} .tl-axis .tl-ticks`,
      )}).getBoundingClientRect())`,
    );
    const firstRow = rows[0] as RowBox;
    expect(Math.abs(axis.left - firstRow.trackLeft)).toBeLessThan(1.5); // the axis spans the bars' track
    expect(Math.abs(axis.width - firstRow.trackWidth)).toBeLessThan(1.5);
    // The first tick starts at the axis' left; each other one is centred on its time.
    expect(Math.abs((ticks[0]?.left ?? NaN) - axis.left)).toBeLessThan(1.5);
    for (const tick of ticks.slice(1)) {
      const at = axis.left + (tick.ms / total) * axis.width;
      expect(Math.abs(tick.left + tick.width / 2 - at)).toBeLessThan(1.5);
    }

    // Clicking a step shows its arguments and result in full.
    await page.click(`${timelineOf(id)} .tl-row[data-row-id="tool-call_read"]`);
    await page.waitForSelector(`${timelineOf(id)} .tl-detail[data-row-id="tool-call_read"] .tl-result`, WAIT);
    expect(await page.textContent(`${timelineOf(id)} .tl-detail .tl-result`)).toBe(LONG_RESULT);
    expect(JSON.parse((await page.textContent(`${timelineOf(id)} .tl-detail .tl-args`)) ?? '')).toEqual({
      path: 'notes.md',
    });
    await page.click(`${timelineOf(id)} .tl-row[data-row-id="model-2"]`);
    await page.waitForSelector(`${timelineOf(id)} .tl-detail[data-row-id="model-2"] .tl-output`, WAIT);
    const detail = (await page.textContent(`${timelineOf(id)} .tl-detail`)) ?? '';
    expect(detail).toContain('tool read_file: ');
    expect(detail).toContain('line 120 of notes.md');
    expect(await page.textContent(`${timelineOf(id)} .tl-detail .tl-output`)).toBe(
      'The notes are about a fox. Summary written.',
    );

    mkdirSync(SCREENSHOTS, { recursive: true });
    const file = path.join(SCREENSHOTS, 'timeline-finished-run.png');
    await page.locator(`[data-run-id="${id}"]`).screenshot({ path: file });
    expect(statSync(file).size).toBeGreaterThan(10_000);
  });
});
