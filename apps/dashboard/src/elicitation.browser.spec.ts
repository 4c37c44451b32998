import type { Browser, Page } from 'playwright-core';
import { asyncScheduler, map } from 'rxjs';
import { Agent, contentText, tool } from '@rxagent/core';
import type { ElicitationSchema } from '@rxagent/core/elicitation';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { z } from 'zod';
import { startDashboard, type Dashboard } from './dashboard-server.js';
import { scriptedRunFactory } from './scripted-runs.js';
import { launchChromium } from './chromium-kit.test.js';

// A tool's elicitation (an MCP server asking for a form) in the real page, in Debian's
// Chromium: the form is drawn from the request, filled and submitted like a person would.
jest.setTimeout(60_000);

const WAIT = { timeout: 15_000 };

let dashboard: Dashboard;
let browser: Browser;
let page: Page;
const consoleErrors: string[] = [];

const form: ElicitationSchema = {
  type: 'object',
  properties: {
    guests: { type: 'integer', title: 'Guests', minimum: 1, maximum: 12 },
    name: { type: 'string', title: 'Name', default: 'Guest' },
    terrace: { type: 'boolean', title: 'Terrace' },
    time: {
      type: 'string',
      title: 'Time',
      oneOf: [
        { const: '19', title: '7 pm' },
        { const: '21', title: '9 pm' },
      ],
    },
    diet: { type: 'array', title: 'Diet', items: { anyOf: [{ const: 'vegan' }, { const: 'halal' }] } },
  },
  required: ['guests', 'time'],
};

const book = tool({
  name: 'book_table',
  description: 'Books a table, asking the person for the details',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    ctx.elicit!({ message: 'Who is coming, and when?', requestedSchema: form, source: 'restaurants' }).pipe(
      map((r) =>
        r.action === 'accept' ? `Booked: ${JSON.stringify(r.content)}` : `Not booked (${r.action}).`,
      ),
    ),
});

function bookingAgent() {
  const agent = new Agent({
    model: scriptedModel([toolCallTurn({ name: 'book_table', args: {} }), textTurn('Done.')]),
    tools: [book],
    scheduler: asyncScheduler,
  });
  const id = dashboard.addAgent(agent, 'booking');
  return { agent, id, run: agent.prompt('Book a table for Friday') };
}

const toolText = (agent: Agent) =>
  agent.messages.flatMap((m) => (m.role === 'tool' ? [contentText(m)] : [])).join('\n');

beforeAll(async () => {
  dashboard = await startDashboard({
    host: '127.0.0.1',
    port: 0,
    modelFactory: scriptedRunFactory({ seed: 5 }),
  });
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1440, height: 1100 } });
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  await page.goto(dashboard.url);
  await page.waitForSelector('body[data-connection="open"]', WAIT);
});

afterAll(async () => {
  await browser?.close();
  await dashboard?.close();
});

describe('elicitation forms in the dashboard (Chromium)', () => {
  it('draws the form from the request, and a submitted form answers the tool', async () => {
    const { agent, id, run } = bookingAgent();
    const item = `[data-run-id="${id}"] li.elicitation`;
    await page.waitForSelector(`${item} button.submit`, WAIT);
    expect(await page.getAttribute(`[data-run-id="${id}"]`, 'data-asking')).toBe('true');
    expect(await page.textContent(`${item} .name`)).toBe('restaurants › book_table');
    expect(await page.textContent(`${item} .message`)).toBe('Who is coming, and when?');
    expect(await page.inputValue(`${item} [data-field="name"]`)).toBe('Guest'); // the form's default
    expect(await page.getAttribute(`${item} [data-field="guests"]`, 'type')).toBe('number');
    await page.waitForSelector(
      `[data-run-id="${id}"] ol.log li[data-event-type="elicitation-request"]:has-text("book_table asks: Who is coming")`,
      WAIT,
    );

    await page.fill(`${item} [data-field="guests"]`, '4');
    await page.check(`${item} [data-field="terrace"]`);
    await page.selectOption(`${item} [data-field="time"]`, '21');
    await page.check(`${item} [data-field="diet"] input[value="vegan"]`);
    await page.click(`${item} button.submit`);
    await page.waitForSelector(item, { ...WAIT, state: 'detached' });
    await run;
    expect(JSON.parse(toolText(agent).replace('Booked: ', ''))).toEqual({
      guests: 4,
      name: 'Guest',
      terrace: true,
      time: '21',
      diet: ['vegan'],
    });
    expect(consoleErrors).toEqual([]);
  });

  it('declines from the page, and refuses values that do not fit (the form stays to fix them)', async () => {
    const { agent, id, run } = bookingAgent();
    const item = `[data-run-id="${id}"] li.elicitation`;
    await page.waitForSelector(`${item} button.decline`, WAIT);
    const elicitationId = await page.getAttribute(item, 'data-elicitation-id');
    // What a page could post that the browser's own checks would have stopped.
    const refused = await page.evaluate(
      `fetch(${JSON.stringify(`/runs/${id}/elicitations/${encodeURIComponent(elicitationId ?? '')}`)}, {
         method: 'POST', headers: { 'content-type': 'application/json' },
         body: JSON.stringify({ action: 'accept', content: { guests: 40, time: '21' } }),
       }).then(function (r) { return r.json().then(function (j) { return [r.status, j.error]; }); })`,
    );
    expect(refused).toEqual([400, 'The values do not fit the form: "guests": expected at most 12.']);
    expect(agent.state$.value.pendingElicitations).toHaveLength(1);

    await page.click(`${item} button.decline`);
    await page.waitForSelector(item, { ...WAIT, state: 'detached' });
    await page.waitForSelector(
      `[data-run-id="${id}"] ol.log li[data-event-type="elicitation-end"]:has-text("book_table: decline")`,
      WAIT,
    );
    await run;
    expect(toolText(agent)).toBe('Not booked (decline).');
  });
});
