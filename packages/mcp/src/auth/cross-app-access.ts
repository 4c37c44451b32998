import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '../limits/limit-responses.js';
import { McpAuthError } from '../mcp-errors.js';
import type { McpOAuthCrossAppAccess } from './oauth-config.js';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';
/** The grant the MCP server's authorization server takes the assertion with (RFC 7523). */
export const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * Exchanges the person's ID token at the identity provider for an identity assertion grant
 * for the MCP server's authorization server (RFC 8693 token exchange, SEP-990): the audience
 * is that server's issuer, the resource the MCP server's resource identifier, both as
 * discovery found them. Resolves with the assertion; `McpAuthError` (no body, no token) when
 * the provider refuses.
 *
 * @example
 * const assertion = await requestIdentityAssertion(server, config, discovery, fetch);
 */
export async function requestIdentityAssertion(
  server: string,
  config: McpOAuthCrossAppAccess,
  discovery: OAuthDiscoveryState | undefined,
  fetchFn: FetchLike,
): Promise<string> {
  const audience = discovery?.authorizationServerMetadata?.issuer ?? discovery?.authorizationServerUrl;
  const resource = discovery?.resourceMetadata?.resource;
  if (!audience || !resource) {
    throw new McpAuthError(
      server,
      `Cross-app access with the MCP server "${server}" needs its protected-resource metadata (resource and authorization server); discovery did not find them.`,
    );
  }
  const subject = typeof config.idToken === 'function' ? await config.idToken() : config.idToken;
  const body = new URLSearchParams({
    grant_type: TOKEN_EXCHANGE,
    requested_token_type: ID_JAG,
    audience,
    resource,
    subject_token: subject,
    subject_token_type: ID_TOKEN,
    client_id: config.idpClientId,
  });
  if (config.idpClientSecret) body.set('client_secret', config.idpClientSecret);
  if (config.scope) body.set('scope', config.scope);
  const response = await fetchFn(config.idpTokenEndpoint, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
    body: body.toString(),
  });
  const answer = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
  if (!response.ok || typeof answer.access_token !== 'string') {
    const code = typeof answer.error === 'string' ? answer.error.slice(0, 64) : `HTTP ${response.status}`;
    throw new McpAuthError(
      server,
      `Cross-app access with the MCP server "${server}" failed: the identity provider refused the token exchange (${code}). Check the ID token and the identity provider's client.`,
    );
  }
  return answer.access_token;
}
