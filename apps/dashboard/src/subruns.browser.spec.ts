import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { map, timer } from 'rxjs';
import { z } from 'zod';
import { Agent, tool } from '@rxagent/core';
import { subagentTool } from '@rxagent/subagents';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { startDashboard, type Dashboard } from './dashboard-server.js';

// A parent agent delegates two tasks in parallel to scout sub-agents; the real page, in
// Debian's Chromium, must show both sub-runs nested under the parent's `subagent` call, live.
jest.setTimeout(60_000);

const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = path.resolve(__dirname, '..', 'screenshots');
const WAIT = { timeout: 15_000 };

let dashboard: Dashboard;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the dashboard browser test needs it. ` +
        'Install it with `apt-get install -y chromium` (Debian package), then run the test again.',
    );
  }
  dashboard = await startDashboard({ host: '127.0.0.1', port: 0 });
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
    // The call's own line reads as the latest sub-run's summary, not as raw JSON.
    expect(await page.textContent(`${call} > .progress-label`)).toMatch(/^(scout|checker) → lookup/);
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'dashboard-subruns.png'), fullPage: true });

    // When the call ends its sub-runs go with it; the run finishes with their tokens counted.
    await page.waitForSelector(`[data-run-id="${id}"][data-phase="done"]`, WAIT);
    expect(await page.$$(`[data-run-id="${id}"] li.subrun`)).toHaveLength(0);
    const result = await done;
    expect(result.usage.totalTokens).toBe(2 * (48 + 66));
  });
});
