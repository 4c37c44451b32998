import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

// What the dashboard's browser specs share: Debian's Chromium, headless, and a page script
// that records Content-Security-Policy violations.

/** Where Debian's `chromium` package puts the browser. */
export const CHROMIUM = '/usr/bin/chromium';

/** Debian's Chromium, headless and offline; fails with what to install when it is missing. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is missing at ${CHROMIUM}: the dashboard's browser tests need it. ` +
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
      '--disable-quic',
      '--no-first-run',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A page init script: each CSP violation goes to `window.cspViolations`. */
export const RECORD_CSP_VIOLATIONS = `window.cspViolations = [];
     document.addEventListener('securitypolicyviolation', function (e) {
       window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI);
     });`;
