import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startHonoServer, type HonoRunAppOptions } from './hono-app.js';
import { bundlePage, pageHtml, type PAGES } from './pages.js';
import type { RunHubs } from './run-hubs.js';

// What the example's browser specs share: Debian's Chromium, headless, and the example's Hono
// server with one front-end page bundled and served at `/`.

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless and offline; fails with what to install when it is missing. */
export function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the example's browser tests need it. ` +
        'Install it with `apt-get install -y chromium` (Debian package), then run the test again.',
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--headless',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
}

/** The example's Hono server with `page` bundled and served at `/`, and the `routes` given. */
export async function servePage(
  hubs: RunHubs,
  page: (typeof PAGES)[keyof typeof PAGES],
  routes: Omit<HonoRunAppOptions, 'assets'>,
): Promise<{ url: string; close(): Promise<void> }> {
  const script = await bundlePage(page, __dirname);
  return startHonoServer(hubs, {
    ...routes,
    assets: {
      '/': { type: 'text/html; charset=utf-8', body: pageHtml(page) },
      [`${page.path}.js`]: { type: 'text/javascript; charset=utf-8', body: script },
    },
  });
}
