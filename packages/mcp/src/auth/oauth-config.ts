import type { McpTokenStore } from './token-store.js';

/** What every OAuth configuration may say. */
interface McpOAuthCommon {
  /** Where tokens, the registered client and discovery results are kept (default: in memory). */
  store?: McpTokenStore;
  /** The key in the store (default: the server's URL). Give each account its own key. */
  storeKey?: string;
  /** The scope asked for when neither the server's challenge nor its metadata names one. */
  scope?: string;
}

/**
 * OAuth with a person signing in (authorization code with PKCE, the MCP default). rxagent
 * discovers the authorization server from the MCP server (protected-resource metadata, then
 * authorization-server or OpenID metadata), registers the client when needed (a client ID
 * metadata document when the server accepts one and `clientMetadataUrl` is given, else
 * dynamic registration, or the pre-registered `clientId`), then calls `onAuthorize` with the
 * sign-in URL. Tokens are refreshed with the refresh token; a server asking for more scope
 * (step-up) is authorized again.
 *
 * @example
 * const auth: McpOAuthAuthorizationCode = {
 *   redirectUrl: 'http://127.0.0.1:8976/callback',
 *   onAuthorize: async (url) => openBrowserAndWaitForRedirect(url),
 *   store: fileTokenStore('~/.my-cli/mcp-tokens.json'),
 * };
 */
export interface McpOAuthAuthorizationCode extends McpOAuthCommon {
  grant?: 'authorization_code';
  /** Where the authorization server sends the browser back (registered with the client). */
  redirectUrl: string | URL;
  /**
   * Shows the sign-in page (`authorizationUrl`) to the person and resolves with the URL the
   * browser was sent back to (the `redirectUrl` with `code` and `state`). `loopbackAuthorization()`
   * does this for a CLI. A redirect whose `state` does not match is refused.
   */
  onAuthorize(authorizationUrl: URL): Promise<string | URL>;
  /** A pre-registered client (no registration is attempted). */
  clientId?: string;
  /** Its secret, for a confidential client (sent with `client_secret_basic` or `_post`, as the server allows). */
  clientSecret?: string;
  /** An HTTPS URL of a client ID metadata document, used as the client ID when the server accepts it. */
  clientMetadataUrl?: string;
  /** The client's name at registration (default `'rxagent'`). */
  clientName?: string;
  /** Ask for `offline_access` (a refresh token) when the authorization server offers it. Default true. */
  offlineAccess?: boolean;
}

/**
 * OAuth for a machine (client credentials): a client secret, or a private key that signs a JWT
 * (`private_key_jwt`). No person is involved.
 *
 * @example
 * const auth: McpOAuthClientCredentials = { grant: 'client_credentials', clientId: 'svc', clientSecret: process.env.SECRET! };
 */
export interface McpOAuthClientCredentials extends McpOAuthCommon {
  grant: 'client_credentials';
  clientId: string;
  /** A client secret (`client_secret_basic` or `_post`, as the server allows). */
  clientSecret?: string;
  /** A private key (PEM, PKCS#8) to sign the client assertion with (`private_key_jwt`). */
  privateKey?: string;
  /** The JWT signing algorithm of `privateKey` (default `RS256`). */
  algorithm?: string;
}

/**
 * Cross-app access (enterprise-managed authorization, SEP-990): the person's ID token from the
 * enterprise identity provider is exchanged there for an identity assertion grant (RFC 8693),
 * which the MCP server's authorization server takes for an access token (RFC 7523 JWT bearer).
 * No browser is involved.
 *
 * @example
 * const auth: McpOAuthCrossAppAccess = {
 *   grant: 'cross_app_access', clientId: 'mcp-client', clientSecret,
 *   idToken: () => sso.idToken(), idpTokenEndpoint: 'https://idp.example.com/token', idpClientId: 'idp-client',
 * };
 */
export interface McpOAuthCrossAppAccess extends McpOAuthCommon {
  grant: 'cross_app_access';
  /** The client at the MCP server's authorization server. */
  clientId: string;
  clientSecret?: string;
  /** The person's ID token from the identity provider (a function is called for each exchange). */
  idToken: string | (() => string | Promise<string>);
  /** The identity provider's token endpoint (where the exchange happens). */
  idpTokenEndpoint: string;
  /** The client at the identity provider. */
  idpClientId: string;
  idpClientSecret?: string;
}

/**
 * How rxagent authorizes with a Streamable HTTP server (OAuth 2.1 as MCP specifies it, through
 * the official SDK's auth support).
 *
 * @example
 * connectMcp({ name: 'docs', url: 'https://docs.example.com/mcp', auth: { redirectUrl, onAuthorize } });
 */
export type McpOAuth = McpOAuthAuthorizationCode | McpOAuthClientCredentials | McpOAuthCrossAppAccess;
