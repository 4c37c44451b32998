import type { OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/**
 * What is kept for one server (and account): the tokens, the client the authorization server
 * registered (never a pre-registered client's secret), and what discovery found. Keep it as
 * given: the SDK stamps each value with the authorization server it belongs to.
 *
 * @example
 * const saved: McpStoredAuth = { tokens: { access_token: '…', token_type: 'Bearer', refresh_token: '…' } };
 */
export interface McpStoredAuth {
  tokens?: OAuthTokens;
  client?: OAuthClientInformationMixed;
  discovery?: OAuthDiscoveryState;
}

/**
 * Where OAuth state is kept between runs and processes: `memoryTokenStore()` (the default) or
 * `fileTokenStore(path)`, or your own (a keychain, a database). Values hold secrets: store them
 * as you would a password.
 *
 * @example
 * const store: McpTokenStore = {
 *   load: (key) => keychain.get(key).then((v) => (v ? JSON.parse(v) : undefined)),
 *   save: (key, value) => keychain.set(key, JSON.stringify(value)),
 * };
 */
export interface McpTokenStore {
  load(key: string): McpStoredAuth | undefined | Promise<McpStoredAuth | undefined>;
  save(key: string, value: McpStoredAuth): void | Promise<void>;
}

/**
 * A token store in this process's memory: what it holds ends with the process.
 *
 * @example
 * const store = memoryTokenStore();
 * await connectMcp({ name: 'docs', url, auth: { redirectUrl, onAuthorize, store } });
 */
export function memoryTokenStore(): McpTokenStore {
  const values = new Map<string, McpStoredAuth>();
  return {
    load: (key) => {
      const value = values.get(key);
      return value && structuredClone(value);
    },
    save: (key, value) => void values.set(key, structuredClone(value)),
  };
}
