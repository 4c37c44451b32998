import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { map, timer } from 'rxjs';
import { z } from 'zod';
import { contextEngine } from '@rxagent/context';
import { Agent, tool, userMessage, type AgentMessage } from '@rxagent/core';
import { subagentTool } from '@rxagent/subagents';
import { assistantMessage, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import { launchChromium } from './chromium-kit.test.js';

// A parent agent delegates two tasks in parallel to scout sub-agents; the real page, in
// Debian's Chromium, must show both sub-runs nested under the parent's `subagent` call, live.
jest.setTimeout(60_000);

const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const WAIT = { timeout: 15_000 };

let dashboard: Dashboard;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  dashboard = await startDashboard({ host: '127.0.0.1', port: 0 });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

function lookingUp(topic: string, description: string) {
  const lookup = tool({
    name: 'lookup',
    description: 'Look a topic up (slowly)',
    parameters: z.object({ topic: z.string() }),
    execute: ({ topic }) => timer(1200).pipe(map(() => `notes on ${topic}`)),
  });
  const model = scriptedModel(
    [
      toolCallTurn({ name: 'lookup', args: { topic } }, { usage: { inputTokens: 40, outputTokens: 8 } }),
      textTurn(`${topic}: all good.`, { usage: { inputTokens: 60, outputTokens: 6 } }),
    ],
    { latency: { firstMs: 150, perEventMs: 5 } },
  );
  return { description, model, tools: [lookup] };
}

describe('dashboard: sub-agent runs', () => {
  it('shows sub-runs nested under the parent tool call while they work', async () => {
    const subagent = subagentTool({
      agents: { scout: lookingUp('auth', 'Looks things up'), checker: lookingUp('billing', 'Checks things') },
    });
    const parent = scriptedModel(
      [
        toolCallTurn({
          name: 'subagent',
          args: {
            tasks: [
              { agent: 'scout', task: 'Check auth' },
              { agent: 'checker', task: 'Check billing' },
            ],
          },
        }),
        textTurn('Both areas look fine.'),
      ],
      { latency: { firstMs: 100, perEventMs: 5 } },
    );
    const agent = new Agent({ model: parent, tools: [subagent] });
    const id = dashboard.addAgent(agent, 'delegating #1');
    await page.goto(dashboard.url);
    await page.waitForSelector('body[data-connection="open"]', WAIT);
    const done = agent.prompt('Are auth and billing fine?');

    const call = `[data-run-id="${id}"] li.tool[data-tool-name="subagent"]`;
    // Both sub-runs appear under the call, each at work in its own lookup.
    await page.waitForSelector(
      `${call} li.subrun[data-agent="scout"] .summary:has-text("scout → lookup")`,
      WAIT,
    );
    await page.waitForSelector(
      `${call} li.subrun[data-agent="checker"] .summary:has-text("checker → lookup")`,
      WAIT,
    );
    // Plain JS as a string: the repo's type-check has no DOM lib.
    const rows = await page.evaluate<string[][]>(
      `Array.from(document.querySelectorAll(${JSON.stringify(`${call} li.subrun`)})).map(function (li) {
         return [li.dataset.agent, li.querySelector('.step').textContent, li.querySelector('.tokens').textContent];
       })`,
    );
    expect(rows).toEqual([
      ['scout', 'step 1', '48 tok'],
      ['checker', 'step 1', '48 tok'],
    ]);
    // The call's own line reads as the latest sub-run's summary, not as raw JSON; its bar moves
    // (no share to show yet, never an empty bar) and it shows what its sub-runs spent so far.
    expect(await page.textContent(`${call} > .progress-label`)).toMatch(/^(scout|checker) → lookup/);
    // One reading of the DOM, so the figures are of one moment.
    const shown = await page.evaluate<{
      bar: string;
      width: string;
      states: string[];
      call: string;
      subruns: string[];
      card: string;
    }>(
      `(function () {
         var call = document.querySelector(${JSON.stringify(call)});
         var subruns = Array.from(call.querySelectorAll('li.subrun'));
         return {
           bar: call.querySelector(':scope > .bar').dataset.indeterminate,
           width: call.querySelector(':scope > .bar > span').style.width,
           states: subruns.map(function (li) { return li.dataset.state; }),
           call: call.querySelector(':scope > .tokens').textContent,
           subruns: subruns.map(function (li) { return li.querySelector('.tokens').textContent; }),
           card: document.querySelector(${JSON.stringify(`[data-run-id="${id}"] .stats > span:nth-of-type(2) > b`)}).textContent,
         };
       })()`,
    );
    const ended = shown.states.filter((state) => state !== 'running').length;
    if (ended === 0) expect(shown.bar).toBe('true');
    else expect(shown.width).toBe(`${Math.round((ended / shown.states.length) * 100)}%`);
    const spent = shown.subruns.reduce((sum, t) => sum + Number(t.replace(/\D/g, '')), 0);
    expect(shown.call).toBe(`${spent} tok`);
    // The parent's first call reported no usage: everything spent so far is its sub-runs'.
    expect(shown.card).toBe(String(spent));
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-subruns.png'), fullPage: true });

    // When the call ends its sub-runs go with it; the run finishes with their tokens counted.
    await page.waitForSelector(`[data-run-id="${id}"][data-phase="done"]`, WAIT);
    expect(await page.$$(`[data-run-id="${id}"] li.subrun`)).toHaveLength(0);
    const result = await done;
    expect(result.usage.totalTokens).toBe(2 * (48 + 66));
  });
});

/** 20 long exchanges (~10,000 tokens): over an 8,000-token window, so the first call summarizes. */
function longTranscript(): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage('Keep an eye on auth.')];
  for (let i = 0; i < 20; i++) {
    messages.push(
      assistantMessage([{ type: 'text', text: `Note ${i}: ${'a'.repeat(2_000)}` }]),
      userMessage(`More ${i}`),
    );
  }
  return messages;
}

const PRICE = { inputPerMillion: 1, outputPerMillion: 4 };
const latency = { latency: { firstMs: 60, perEventMs: 5 } };

describe('dashboard: the timeline of a run with a summary call and nested sub-runs', () => {
  it('draws the summary row and each sub-run under its call, and their figures agree with the card', async () => {
    // Each run prices its own calls (a sub-agent has its own config); the summary model reports
    // its cost itself, as some providers do: the context engine does not price summary calls.
    const prices = { 'parent-model': PRICE, 'scout-model': PRICE, 'helper-model': PRICE };
    const helper = {
      description: 'Helps',
      model: scriptedModel([textTurn('Helped.', { usage: { inputTokens: 30, outputTokens: 3 } })], {
        ...latency,
        modelId: 'helper-model',
      }),
      prices,
    };
    const scout = {
      description: 'Looks things up',
      model: scriptedModel(
        [
          toolCallTurn(
            { name: 'subagent', args: { agent: 'helper', task: 'Help' } },
            { usage: { inputTokens: 40, outputTokens: 8 } },
          ),
          textTurn('auth: all good.', { usage: { inputTokens: 60, outputTokens: 6 } }),
        ],
        { ...latency, modelId: 'scout-model' },
      ),
      tools: [subagentTool({ agents: { helper }, maxDepth: 2 })],
      prices,
    };
    const parent = scriptedModel(
      [
        toolCallTurn(
          { name: 'subagent', args: { agent: 'scout', task: 'Check auth' } },
          { usage: { inputTokens: 900, outputTokens: 20 } },
        ),
        textTurn('Auth is fine.', { usage: { inputTokens: 950, outputTokens: 10 } }),
      ],
      { ...latency, modelId: 'parent-model' },
    );
    const summaries = scriptedModel(
      [
        textTurn('## Goal\nWatch auth.\n## Progress\nNotes taken.', {
          usage: { inputTokens: 5000, outputTokens: 40, costUsd: 0.00516 },
        }),
      ],
      { ...latency, modelId: 'summary-model' },
    );
    const agent = new Agent({
      model: parent,
      messages: longTranscript(),
      tools: [subagentTool({ agents: { scout }, maxDepth: 2 })],
      contextManager: contextEngine({ model: parent, summaryModel: summaries, contextWindow: 8_000 }),
      prices,
    });
    const id = dashboard.addAgent(agent, 'summarized #1');
    await page.goto(dashboard.url);
    const card = `[data-run-id="${id}"]`;
    await page.waitForSelector(`${card} .timeline-toggle`, WAIT);
    await page.click(`${card} .timeline-toggle`);
    await agent.prompt('Is auth fine?');
    await page.waitForSelector(`${card}[data-phase="done"] section.timeline[data-ended="true"]`, WAIT);
    // The page fetches the timeline again after the last push: wait for the answer's row.
    await page.waitForSelector(`${card} .tl-row[data-row-id="model-2"][data-status="ok"]`, WAIT);

    const rows = await page.evaluate<
      {
        id: string;
        kind: string;
        depth: number;
        parent: string;
        tokens: number;
        subtotal: number;
        meta: string;
      }[]
    >(
      `Array.from(document.querySelectorAll(${JSON.stringify(`${card} .tl-row`)})).map(function (li) {
         return { id: li.dataset.rowId, kind: li.dataset.kind, depth: Number(li.dataset.depth), parent: li.dataset.parent || '',
           tokens: Number(li.dataset.tokens || 0), subtotal: Number(li.dataset.subtotal || 0),
           meta: li.querySelector('.tl-meta').textContent };
       })`,
    );
    expect(rows.map((r) => [r.id, r.kind, r.depth, r.parent, r.tokens])).toEqual([
      ['summary-1', 'summary', 0, '', 5040],
      ['model-1', 'model', 0, '', 920],
      [expect.stringMatching(/^tool-/), 'tool', 0, '', 0],
      ['s1', 'subrun', 1, rows[2]?.id, 0],
      ['s1.model-1', 'model', 2, 's1', 48],
      [expect.stringMatching(/^s1\.tool-/), 'tool', 2, 's1', 0],
      ['s2', 'subrun', 3, rows[5]?.id, 0],
      ['s2.model-1', 'model', 4, 's2', 33],
      ['s1.model-2', 'model', 2, 's1', 66],
      ['model-2', 'model', 0, '', 960],
    ]);
    // The call that ran the scout shows everything its sub-runs spent, the scout's row too.
    expect(rows[2]?.subtotal).toBe(48 + 33 + 66);
    expect(rows[2]?.meta).toContain('Σ 147 tok');
    expect(rows[3]?.subtotal).toBe(48 + 33 + 66);
    expect(rows[5]?.subtotal).toBe(33);

    // The rows add up to the timeline's totals, and those are the card's: tokens and cost.
    const card$ = await page.textContent(`${card} .stats`);
    const totals = (await page.textContent(`${card} .tl-totals`)) ?? '';
    const sum = rows.reduce((n, r) => n + r.tokens, 0);
    expect(sum).toBe(agent.state$.value.usage.totalTokens);
    expect(card$).toContain(`tokens ${sum.toLocaleString('en-US')} (`);
    expect(totals).toContain(`${sum.toLocaleString('en-US')} tokens (`);
    const costUsd = agent.state$.value.usage.costUsd ?? NaN;
    expect(costUsd).toBeCloseTo((980 + 990 + 72 + 84 + 42 + 5160) / 1e6, 12);
    const cost = `$${costUsd.toFixed(6)}`;
    expect(card$).toContain(cost);
    expect(totals).toContain(cost);

    // The summary row opens to the summary it wrote.
    await page.click(`${card} .tl-row[data-row-id="summary-1"]`);
    await page.waitForSelector(`${card} .tl-detail[data-row-id="summary-1"] .tl-output`, WAIT);
    expect(await page.textContent(`${card} .tl-detail .tl-output`)).toContain('## Goal');
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.locator(card).screenshot({ path: path.join(SCREENSHOTS, 'timeline-subruns-summary.png') });
  });
});
