import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { contextEngine } from '@rxagent/context';
import { jsonSchema, tool, type ChatRequest } from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import type { ModelFactory, RunRecipe, RunRequest } from './run-factory.js';
import { launchChromium } from './chromium-kit.test.js';

// The context gauge of a run card, in Debian's Chromium against a real server: a 120-step run
// with @rxagent/context's engine in an 8,000-token window (its summaries paced so "compacting…"
// shows), next to a run without a context manager (no gauge).
jest.setTimeout(60_000);

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const WAIT = { timeout: 20_000 };
const STEPS = 120;

const readTool = tool({
  name: 'read',
  description: 'Read a file',
  parameters: jsonSchema<{ path: string }>({
    type: 'object',
    properties: { path: { type: 'string' } },
    required: ['path'],
  }),
  execute: ({ path: p }) => `${p}: ${'x'.repeat(1_500)}`,
});

function summaryTurn(request: ChatRequest) {
  const first = request.messages[0];
  const prompt = first?.role === 'user' && typeof first.content === 'string' ? first.content : '';
  const steps = [...prompt.matchAll(/Step (\d+)/g)].map((m) => Number(m[1]));
  const text = `## Goal\nRead every file.\n## Progress\nRead through step ${Math.max(-1, ...steps)}.\n## Key decisions\n- One file per step.\n## Next steps\n- Go on.`;
  return textTurn(text, { chunks: text.split(/(?<=\s)/), usage: { inputTokens: 900, outputTokens: 60 } });
}

const factory: ModelFactory = Object.assign(
  (request: RunRequest): RunRecipe => {
    const { scheduler } = request;
    const model = scriptedModel(
      [
        ...Array.from({ length: STEPS }, (_, i) =>
          toolCallTurn({ name: 'read', args: { path: `src/f${i}.ts` } }, { text: `Step ${i}.` }),
        ),
        textTurn('All files read.'),
      ],
      { scheduler, latency: { firstMs: 4, perEventMs: 1 }, modelId: 'scripted-long' },
    );
    if (request.scenario === 'plain') {
      return {
        model: scriptedModel([textTurn('Hi.')], { scheduler, latency: 5 }),
        prompt: 'Say hi',
        label: 'plain',
      };
    }
    const summaryModel = scriptedModel(
      Array.from({ length: 20 }, () => summaryTurn),
      { scheduler, latency: { firstMs: 250, perEventMs: 25 }, modelId: 'scripted-summary' },
    );
    return {
      model,
      tools: [readTool],
      prompt: 'Read every file under src/.',
      maxSteps: STEPS + 1,
      label: 'long run, 8k window',
      contextManager: contextEngine({ model, contextWindow: 8_000, summaryModel }),
    };
  },
  { scenarios: ['long-context', 'plain'], source: 'scripted' },
);

/** Records, in the page, every state of each card's gauge. Plain JS (no DOM lib in the type-check). */
const WATCH_GAUGES = `
  window.gauges = {};
  new MutationObserver(function () {
    document.querySelectorAll('.run').forEach(function (card) {
      var g = card.querySelector('.context-gauge');
      var seen = window.gauges[card.dataset.runId] = window.gauges[card.dataset.runId] || { percents: [], compacting: false, compactingLevels: [], labels: [] };
      if (!g || g.hidden) return;
      if (g.dataset.compacting === 'true') {
        seen.compacting = true;
        seen.compactingLevels.push(g.dataset.level);
      } else seen.percents.push(Number(g.dataset.percent));
      var label = g.querySelector('.gauge-label').textContent;
      if (seen.labels[seen.labels.length - 1] !== label) seen.labels.push(label);
    });
  }).observe(document.getElementById('runs'), { subtree: true, childList: true, characterData: true, attributes: true });
`;

let dashboard: Dashboard;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

beforeAll(async () => {
  dashboard = await startDashboard({ host: '127.0.0.1', port: 0, modelFactory: factory });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

const card = (id: string) => `[data-run-id="${id}"]`;

describe('the context gauge in Chromium', () => {
  it('shows how full each run\'s context is, "compacting…" with the size about to be sent, and what is sent under the limit', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-connection="open"]', WAIT);
    await page.evaluate(WATCH_GAUGES);
    const long = dashboard.startRun(undefined, { scenario: 'long-context' });
    const plain = dashboard.startRun(undefined, { scenario: 'plain' });

    await page.waitForSelector(`${card(long)} .context-gauge[data-compacting="true"]`, WAIT);
    // While the summary is written the gauge shows the context about to be sent — over the
    // limit, which is why it is summarized — not the last one sent.
    const compactingLabel = (await page.textContent(`${card(long)} .gauge-label`)) ?? '';
    expect(compactingLabel).toMatch(/^\d+(\.\d+)?% · [\d,]+ \/ 8,000 tokens · .*compacting…$/);
    expect(Number(compactingLabel.split('%')[0])).toBeGreaterThan(75);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'context-gauge.png') });

    await page.waitForSelector(`${card(long)}[data-phase="done"]`, WAIT);
    await page.waitForSelector(`${card(plain)}[data-phase="done"]`, WAIT);
    const gauge = `${card(long)} .context-gauge`;
    expect(await page.isVisible(gauge)).toBe(true);
    expect(await page.getAttribute(gauge, 'data-compacting')).toBe('false');
    const label = (await page.textContent(`${gauge} .gauge-label`)) ?? '';
    expect(label).toMatch(/^\d+(\.\d+)?% · [\d,]+ \/ 8,000 tokens · [\d,]+ compacted away$/);
    // The limit mark sits where compaction starts: 8,000 - 2,000 reserved = 75 %.
    expect(
      await page.$eval(
        `${gauge} .gauge-limit`,
        (e) => (e as unknown as { style: { left: string } }).style.left,
      ),
    ).toBe('75%');

    const seen = await page.evaluate<{
      percents: number[];
      compacting: boolean;
      compactingLevels: string[];
      labels: string[];
    }>(`window.gauges[${JSON.stringify(long)}]`);
    expect(seen.compacting).toBe(true);
    expect(new Set(seen.compactingLevels)).toEqual(new Set(['over']));
    // What is sent stays under the limit.
    expect(seen.percents.length).toBeGreaterThan(5);
    expect(Math.max(...seen.percents)).toBeLessThanOrEqual(75);
    expect(new Set(seen.percents).size).toBeGreaterThan(3);

    // A run without a context manager has no gauge.
    expect(await page.isHidden(`${card(plain)} .context-gauge`)).toBe(true);
    expect(consoleErrors).toEqual([]);
  });
});
