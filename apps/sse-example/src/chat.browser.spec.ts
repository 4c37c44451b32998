import type { Browser } from 'playwright-core';
import { chatRun } from './chat-run.js';
import { PAGES } from './pages.js';
import { launchChromium, servePage } from './browser-kit.test.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';

// The AI SDK's React hook (`useChat`, @ai-sdk/react 4 with ai 7) in Debian's Chromium (headless),
// bundled with esbuild, against the example's rxagent chat route (`toUIMessageStreamResponse`).
// The page sends a prompt, shows the tool parts, and a person approves the call that needs it:
// the run waits on the server until then and goes on in the same stream.
jest.setTimeout(60_000);

let browser: Browser;
let server: { url: string; close(): Promise<void> };
const hubs = new RunHubs((prompt) => scriptedRun(prompt, 0));

beforeAll(async () => {
  browser = await launchChromium();
  server = await servePage(hubs, PAGES.chat, { chat: (prompt, approver) => chatRun(prompt, approver, 10) });
});

afterAll(async () => {
  await browser?.close();
  hubs.stopAll();
  await server?.close();
});

describe('useChat (@ai-sdk/react) in Chromium against an rxagent route', () => {
  it('streams reasoning, tool parts and text, and carries a person’s approval to the waiting run', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url);
    await page.fill('input[name=prompt]', 'What is an observable?');
    await page.click('button[type=submit]');

    // The run stops at the approval: the page shows the request, with the first tool's output.
    await page.waitForSelector('[data-tool=delete_notes][data-state=approval-requested]');
    expect(await page.textContent('[data-output=look_up]')).toBe('observable: a value over time');
    expect(await page.textContent('[data-part=reasoning]')).toBe('The user asks about observables.');
    expect(await page.getAttribute('main', 'data-status')).toBe('streaming');

    await page.click('[data-approve=delete_notes]');
    await page.waitForSelector('main[data-status=ready]');
    expect(errors).toEqual([]);
    expect(await page.getAttribute('[data-tool=delete_notes]', 'data-state')).toBe('output-available');
    expect(await page.textContent('[data-output=delete_notes]')).toBe('Deleted the notes on observables.');
    const texts = await page.locator('[data-role=assistant] [data-part=text]').allTextContents();
    expect(texts).toEqual([
      'Tidying up first.',
      'You asked: "What is an observable?". An observable is a value over time.',
    ]);
    // One assistant message for the whole run, after the user's.
    const sections = page.locator('[data-role]');
    expect(await sections.count()).toBe(2);
    expect(await sections.nth(0).getAttribute('data-role')).toBe('user');
    expect(await sections.nth(1).getAttribute('data-role')).toBe('assistant');
    expect(await page.$('[data-part=error]')).toBeNull();
    await page.close();
  });
});
