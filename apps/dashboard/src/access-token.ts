import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/**
 * Name of the cookie that carries the access token for the page's own requests (`/page.js`,
 * `/events`, the POSTs), set when the page is opened with `?token=`.
 *
 * @example
 * res.setHeader('set-cookie', tokenCookie(token));
 */
export const TOKEN_COOKIE = 'rxagent_dashboard_token';

/**
 * Header that may carry the access token instead (scripts, `curl`).
 *
 * @example
 * fetch(`${url}runs`, { headers: { [TOKEN_HEADER]: token } });
 */
export const TOKEN_HEADER = 'x-dashboard-token';

/**
 * A new access token: 32 random bytes from `crypto.randomBytes`, base64url.
 *
 * @example
 * const token = newAccessToken(); // 'q3Jx…' (43 characters)
 */
export function newAccessToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * Where a request carries a token: `query` (`?token=` on the URL), `header`
 * (`x-dashboard-token`) or `cookie`; `undefined` when it carries none.
 *
 * @example
 * const found = requestToken(req); // { token: 'q3Jx…', from: 'query' }
 */
export function requestToken(
  req: IncomingMessage,
): { token: string; from: 'query' | 'header' | 'cookie' } | undefined {
  const query = new URL(req.url ?? '/', 'http://dashboard').searchParams.get('token');
  if (query) return { token: query, from: 'query' };
  const header = req.headers[TOKEN_HEADER];
  if (typeof header === 'string' && header !== '') return { token: header, from: 'header' };
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === TOKEN_COOKIE && value.length > 0) return { token: value.join('='), from: 'cookie' };
  }
  return undefined;
}

/**
 * True when `given` is the expected token (compared in constant time).
 *
 * @example
 * if (!tokenMatches(ctx.accessToken, requestToken(req)?.token)) throw new HttpError(401, '…');
 */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/**
 * The `Set-Cookie` value that lets the page's own requests carry the token: HttpOnly (no
 * script reads it), SameSite=Strict (no other site's request carries it), the whole site.
 *
 * @example
 * res.setHeader('set-cookie', tokenCookie(token));
 */
export function tokenCookie(token: string): string {
  return `${TOKEN_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Strict`;
}
