import { McpConfigError } from '../mcp-errors.js';
import type { McpOAuth } from './oauth-config.js';

const isUrl = (value: unknown): boolean =>
  (typeof value === 'string' || value instanceof URL) && URL.canParse(String(value));

/** Throws `McpConfigError` naming what an OAuth configuration lacks (values are never quoted). */
export function checkOAuth(server: string, auth: McpOAuth): void {
  const fail = (what: string) => {
    throw new McpConfigError(`The MCP server "${server}" has an OAuth configuration that ${what}.`);
  };
  if (typeof auth !== 'object' || auth === null) return fail('is not an object');
  switch (auth.grant) {
    case undefined:
    case 'authorization_code':
      if (!isUrl(auth.redirectUrl))
        fail('needs "redirectUrl", an absolute URL (see loopbackAuthorization())');
      if (typeof auth.onAuthorize !== 'function')
        fail('needs "onAuthorize", a function that shows the sign-in page and resolves with the redirect');
      if (auth.clientMetadataUrl !== undefined && !isUrl(auth.clientMetadataUrl))
        fail('has a "clientMetadataUrl" that is not a URL');
      return;
    case 'client_credentials':
      if (!auth.clientId) fail('needs "clientId"');
      if (!auth.clientSecret && !auth.privateKey) fail('needs "clientSecret" or "privateKey"');
      return;
    case 'cross_app_access':
      if (!auth.clientId) fail('needs "clientId"');
      if (!auth.idToken) fail('needs "idToken"');
      if (!isUrl(auth.idpTokenEndpoint))
        fail('needs "idpTokenEndpoint", the identity provider\'s token endpoint URL');
      if (!auth.idpClientId) fail('needs "idpClientId"');
      return;
    default:
      fail(
        `has an unknown grant ${JSON.stringify((auth as { grant: unknown }).grant)}: use "authorization_code", "client_credentials" or "cross_app_access"`,
      );
  }
}
