import { randomBytes } from 'node:crypto';
import {
  auth,
  type AddClientAuthentication,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { createPrivateKeyJwtAuth } from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { FetchLike } from '../limits/limit-responses.js';
import { McpAuthError } from '../mcp-errors.js';
import { authFailure } from './auth-failure.js';
import { JWT_BEARER, requestIdentityAssertion } from './cross-app-access.js';
import type { McpOAuth, McpOAuthAuthorizationCode } from './oauth-config.js';
import { memoryTokenStore, type McpStoredAuth, type McpTokenStore } from './token-store.js';
import { withOfflineAccess, readRedirect } from './authorization-redirect.js';

/** What a server's challenge (`WWW-Authenticate`) said. */
export interface AuthChallenge {
  resourceMetadataUrl?: URL;
  scope?: string;
}

/**
 * The SDK's `OAuthClientProvider` for one server's configuration: state in the configured
 * token store, the person's sign-in through `onAuthorize` (its redirect checked against the
 * `state` sent), client credentials with a secret or a signed JWT, cross-app access.
 * `authorize` runs the SDK's `auth()` flow, one at a time.
 *
 * @example
 * const provider = new McpOAuthProvider('docs', new URL(url), { redirectUrl, onAuthorize });
 * await provider.authorize({}, fetch);
 */
export class McpOAuthProvider implements OAuthClientProvider {
  readonly addClientAuthentication?: AddClientAuthentication;
  private readonly store: McpTokenStore;
  private readonly key: string;
  private stored?: McpStoredAuth;
  private verifier?: string;
  private expectedState?: string;
  private code?: string;
  private authorizing?: Promise<void>;

  constructor(
    readonly server: string,
    readonly serverUrl: URL,
    readonly config: McpOAuth,
  ) {
    this.store = config.store ?? memoryTokenStore();
    this.key = config.storeKey ?? serverUrl.href;
    if (config.grant === 'client_credentials' && config.privateKey) {
      this.addClientAuthentication = createPrivateKeyJwtAuth({
        issuer: config.clientId,
        subject: config.clientId,
        privateKey: config.privateKey,
        alg: config.algorithm ?? 'RS256',
      });
    }
  }

  private get interactive(): McpOAuthAuthorizationCode | undefined {
    const config = this.config;
    return config.grant === undefined || config.grant === 'authorization_code' ? config : undefined;
  }

  get redirectUrl(): string | undefined {
    const redirect = this.interactive?.redirectUrl;
    return redirect === undefined ? undefined : String(redirect);
  }

  get clientMetadataUrl(): string | undefined {
    return this.interactive?.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const { config } = this;
    const common = {
      client_name: this.interactive?.clientName ?? 'rxagent',
      ...(config.scope ? { scope: config.scope } : {}),
    };
    if (this.interactive) {
      return {
        ...common,
        redirect_uris: [String(this.interactive.redirectUrl)],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: this.interactive.clientSecret ? 'client_secret_basic' : 'none',
      };
    }
    const grant = config.grant === 'client_credentials' ? 'client_credentials' : JWT_BEARER;
    const method =
      config.grant === 'client_credentials' && config.privateKey ? 'private_key_jwt' : 'client_secret_basic';
    return { ...common, redirect_uris: [], grant_types: [grant], token_endpoint_auth_method: method };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('base64url');
    return this.expectedState;
  }

  /** A pre-registered client (from the configuration, never stored), else the registered one. */
  private get configuredClient(): OAuthClientInformationMixed | undefined {
    const config = this.config;
    const clientId = 'clientId' in config ? config.clientId : undefined;
    if (!clientId) return undefined;
    return config.clientSecret
      ? { client_id: clientId, client_secret: config.clientSecret }
      : { client_id: clientId };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.configuredClient ?? (await this.load()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    if (this.configuredClient) return; // its secret stays in the configuration
    await this.save({ ...(await this.load()), client });
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.load()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.save({ ...(await this.load()), tokens });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    const interactive = this.interactive;
    if (!interactive)
      throw new McpAuthError(
        this.server,
        `The MCP server "${this.server}" asked for a sign-in, which this grant cannot do.`,
      );
    const url =
      interactive.offlineAccess === false
        ? authorizationUrl
        : withOfflineAccess(authorizationUrl, (await this.load()).discovery);
    let returned: string | URL;
    try {
      returned = await interactive.onAuthorize(url);
    } catch (error) {
      throw authFailure(this.server, 'onAuthorize failed', error, this.secrets());
    }
    this.code = readRedirect(this.server, returned, this.expectedState);
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier)
      throw new McpAuthError(this.server, 'No sign-in is under way (no PKCE code verifier).');
    return this.verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    const stored = { ...(await this.load()) };
    if (scope === 'all' || scope === 'tokens') delete stored.tokens;
    if (scope === 'all' || scope === 'client') delete stored.client;
    if (scope === 'all' || scope === 'discovery') delete stored.discovery;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
    await this.save(stored);
  }

  async saveDiscoveryState(discovery: OAuthDiscoveryState): Promise<void> {
    await this.save({ ...(await this.load()), discovery });
  }

  async discoveryState(): Promise<OAuthDiscoveryState | undefined> {
    return (await this.load()).discovery;
  }

  /** The grants that need no person: their token request. */
  async prepareTokenRequest(scope?: string): Promise<URLSearchParams | undefined> {
    const config = this.config;
    if (config.grant === 'client_credentials') {
      return new URLSearchParams({ grant_type: 'client_credentials', ...(scope ? { scope } : {}) });
    }
    if (config.grant === 'cross_app_access') {
      const assertion = await requestIdentityAssertion(
        this.server,
        config,
        (await this.load()).discovery,
        this.fetchFn,
      );
      return new URLSearchParams({ grant_type: JWT_BEARER, assertion, ...(scope ? { scope } : {}) });
    }
    return undefined;
  }

  private fetchFn: FetchLike = (url, init) => fetch(url, init);

  /**
   * Runs the SDK's authorization flow for a challenge (one at a time: concurrent challenges
   * share it): a refresh when there is a refresh token, else the grant — for a person, the
   * sign-in through `onAuthorize`, then the code exchange. `McpAuthError` when it fails.
   */
  authorize(challenge: AuthChallenge, fetchFn: FetchLike): Promise<void> {
    this.authorizing ??= this.flow(challenge, fetchFn).finally(() => (this.authorizing = undefined));
    return this.authorizing;
  }

  private async flow(challenge: AuthChallenge, fetchFn: FetchLike): Promise<void> {
    this.fetchFn = fetchFn;
    const options = {
      serverUrl: this.serverUrl,
      fetchFn,
      ...(challenge.resourceMetadataUrl ? { resourceMetadataUrl: challenge.resourceMetadataUrl } : {}),
      ...(challenge.scope ? { scope: challenge.scope } : {}),
    };
    try {
      let result = await auth(this, options);
      if (result === 'REDIRECT') {
        const authorizationCode = this.code;
        this.code = undefined;
        if (!authorizationCode)
          throw new McpAuthError(this.server, 'The sign-in gave no authorization code.');
        result = await auth(this, { ...options, authorizationCode });
      }
      if (result !== 'AUTHORIZED') throw new McpAuthError(this.server, 'The sign-in did not complete.');
    } catch (error) {
      throw authFailure(this.server, 'could not obtain a token', error, this.secrets());
    } finally {
      this.verifier = undefined;
    }
  }

  /** Every secret this provider knows, for redaction. */
  secrets(): string[] {
    const config = this.config as unknown as Partial<Record<string, unknown>>;
    const stored = this.stored;
    return [
      config.clientSecret,
      config.privateKey,
      config.idpClientSecret,
      typeof config.idToken === 'string' ? config.idToken : undefined,
      stored?.tokens?.access_token,
      stored?.tokens?.refresh_token,
      stored?.tokens?.id_token,
      stored?.client?.client_secret,
      this.code,
      this.verifier,
    ].filter((s): s is string => typeof s === 'string');
  }

  private async load(): Promise<McpStoredAuth> {
    this.stored ??= (await this.store.load(this.key)) ?? {};
    return this.stored;
  }

  private async save(value: McpStoredAuth): Promise<void> {
    this.stored = value;
    await this.store.save(this.key, value);
  }
}
