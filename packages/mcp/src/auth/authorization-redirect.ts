import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import { McpAuthError } from '../mcp-errors.js';

/**
 * The sign-in URL with `offline_access` added to its scope when the authorization server
 * lists it in `scopes_supported` (SEP-2207: a client that wants a refresh token asks for it;
 * never when the server does not offer it).
 *
 * @example
 * withOfflineAccess(new URL('https://as.example/authorize?scope=mcp'), discovery).searchParams.get('scope'); // 'mcp offline_access'
 */
export function withOfflineAccess(url: URL, discovery: OAuthDiscoveryState | undefined): URL {
  const supported = discovery?.authorizationServerMetadata?.scopes_supported ?? [];
  if (!supported.includes('offline_access')) return url;
  const scopes = (url.searchParams.get('scope') ?? '').split(' ').filter(Boolean);
  if (scopes.includes('offline_access')) return url;
  const next = new URL(url);
  next.searchParams.set('scope', [...scopes, 'offline_access'].join(' '));
  return next;
}

/**
 * The authorization code of the redirect the browser came back with. Refused with an
 * `McpAuthError` — before any code is exchanged — when the authorization server reported an
 * error, when the redirect's `state` is not the one sent (a forged or stale redirect), or when
 * it has no code.
 *
 * @example
 * const code = readRedirect('docs', 'http://127.0.0.1:8976/callback?code=abc&state=xyz', 'xyz'); // 'abc'
 */
export function readRedirect(
  server: string,
  returned: string | URL,
  expectedState: string | undefined,
): string {
  let url: URL;
  try {
    url = new URL(returned);
  } catch {
    throw new McpAuthError(
      server,
      `onAuthorize for "${server}" must resolve with the URL the browser was sent back to.`,
    );
  }
  const error = url.searchParams.get('error');
  if (error) {
    throw new McpAuthError(
      server,
      `The sign-in to the MCP server "${server}" was refused by the authorization server (${error.slice(0, 64)}).`,
    );
  }
  if (!expectedState || url.searchParams.get('state') !== expectedState) {
    throw new McpAuthError(
      server,
      `The sign-in redirect for the MCP server "${server}" does not carry the state that was sent (a forged or stale redirect): nothing was exchanged. Sign in again.`,
    );
  }
  const code = url.searchParams.get('code');
  if (!code)
    throw new McpAuthError(
      server,
      `The sign-in redirect for the MCP server "${server}" has no authorization code.`,
    );
  return code;
}
