import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '../limits/limit-responses.js';
import { McpAuthError } from '../mcp-errors.js';
import type { McpOAuthProvider } from './oauth-provider.js';

/** Authorizations one request may trigger: a 401, then one step-up; a server that still refuses gets its answer. */
const MAX_AUTHORIZATIONS = 2;

function needsAuthorization(response: Response): boolean {
  if (response.status === 401) return true;
  return response.status === 403 && extractWWWAuthenticateParams(response).error === 'insufficient_scope';
}

/**
 * `fetch` that authorizes: each request carries the current access token; a 401 (no or an
 * expired token) or a 403 `insufficient_scope` (step-up) runs the provider's authorization —
 * a refresh, the person's sign-in, or the machine grant — with what the challenge asked for,
 * then sends the request again. At most two authorizations per request, and never twice for
 * the same challenge, so a server that keeps refusing cannot loop: the request then fails
 * with an `McpAuthError` (the refusal's body, which might quote the request, is not read).
 *
 * @example
 * new StreamableHTTPClientTransport(url, { fetch: oauthFetch(provider, fetch) });
 */
export function oauthFetch(provider: McpOAuthProvider, base: FetchLike): FetchLike {
  return async (url, init) => {
    const send = async () => {
      const headers = new Headers(init?.headers);
      const tokens = await provider.tokens();
      if (tokens) headers.set('Authorization', `Bearer ${tokens.access_token}`);
      return base(url, { ...init, headers });
    };
    let response = await send();
    const seen = new Set<string>();
    for (let i = 0; i < MAX_AUTHORIZATIONS && needsAuthorization(response); i++) {
      const challenge = `${response.status} ${response.headers.get('www-authenticate') ?? ''}`;
      if (seen.has(challenge)) break;
      seen.add(challenge);
      const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
      await response.body?.cancel();
      await provider.authorize(
        { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}) },
        base,
      );
      response = await send();
    }
    if (needsAuthorization(response)) {
      await response.body?.cancel();
      throw new McpAuthError(
        provider.server,
        `The MCP server "${provider.server}" still refuses the request (HTTP ${response.status}) after authorizing: ` +
          'check that the account may use it (its scopes) and the OAuth configuration.',
      );
    }
    return response;
  };
}
