import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { McpAuthError } from '../mcp-errors.js';

const MAX = 300;
// Anything shaped like a credential is hidden even when it is not one we know.
const CREDENTIAL =
  /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+|\b(eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)/g;

/** `text` with every known secret and anything credential-shaped replaced, clipped. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  out = out.replace(CREDENTIAL, '[redacted]');
  return out.length > MAX ? `${out.slice(0, MAX)}…` : out;
}

/**
 * A failure of the authorization flow as an `McpAuthError` safe to show: an OAuth error is
 * named by its code and description; anything else by its class and message; each is cut
 * short and stripped of the secrets given and of anything that looks like a token. The
 * original error is not kept (its message may quote a response body).
 *
 * @example
 * throw authFailure('docs', 'the token request failed', error, [clientSecret, refreshToken]);
 */
export function authFailure(
  server: string,
  what: string,
  error: unknown,
  secrets: readonly (string | undefined)[],
): McpAuthError {
  if (McpAuthError.isInstance(error)) return error;
  let detail: string;
  if (error instanceof OAuthError) {
    detail = error.message ? `${error.errorCode}: ${error.message}` : error.errorCode;
  } else if (error instanceof Error) {
    detail = `${error.name}: ${error.message}`;
  } else {
    detail = String(error);
  }
  return new McpAuthError(
    server,
    `Authorization with the MCP server "${server}" failed: ${what}: ${redact(detail, secrets)}. ` +
      'Check the server URL and the OAuth configuration, or sign in again.',
  );
}
