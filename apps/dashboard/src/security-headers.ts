import type { ServerResponse } from 'node:http';

/**
 * The dashboard's Content-Security-Policy: everything from its own origin only, no inline
 * script or style, no plugins, and no framing by any page (`frame-ancestors 'none'`, the
 * clickjacking guard; `X-Frame-Options: DENY` says the same to older browsers).
 *
 * @example
 * res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Sets the headers every answer of the dashboard carries: the CSP above, `X-Frame-Options:
 * DENY`, `X-Content-Type-Options: nosniff` and `Referrer-Policy: no-referrer` (the page URL
 * may hold an access token).
 *
 * @example
 * http.createServer((req, res) => { setSecurityHeaders(res); route(req, res); });
 */
export function setSecurityHeaders(res: ServerResponse): void {
  res.setHeader('content-security-policy', CONTENT_SECURITY_POLICY);
  res.setHeader('x-frame-options', 'DENY');
  res.setHeader('x-content-type-options', 'nosniff');
  res.setHeader('referrer-policy', 'no-referrer');
}
