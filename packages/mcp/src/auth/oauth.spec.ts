import { mkdtempSync, rmSync, statSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { connectMcp } from '../connect-mcp.js';
import type { McpConnection } from '../mcp-connection.js';
import { McpAuthError, McpConfigError } from '../mcp-errors.js';
import { fileTokenStore } from './file-token-store.js';
import { loopbackAuthorization } from './loopback-authorization.js';
import type { McpOAuthAuthorizationCode } from './oauth-config.js';
import { startOAuthTestServer, type OAuthTestServer } from './oauth-test-server.test.js';
import { memoryTokenStore } from './token-store.js';

jest.setTimeout(30_000);

const REDIRECT = 'http://127.0.0.1:8976/callback';

/** A person's browser: it follows the sign-in page to the redirect and reports where it landed. */
async function browser(authorizationUrl: URL): Promise<string> {
  const response = await fetch(authorizationUrl, { redirect: 'manual' });
  return response.headers.get('location') ?? '';
}

async function callWhoami(connection: McpConnection) {
  const model = scriptedModel([toolCallTurn({ name: 'whoami', args: {} }), textTurn('done')]);
  const events: AgentEvent[] = await collectEvents(
    runAgent({ model, prompt: 'go', tools: connection.tools }),
  );
  const end = events.find((e): e is ToolEndEvent => e.type === 'tool-end');
  const text = (end?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { events, text, last: events.at(-1) };
}

describe('OAuth with an MCP server (authorization code + PKCE)', () => {
  let server: OAuthTestServer;
  let dir: string;
  beforeEach(async () => {
    server = await startOAuthTestServer();
    dir = mkdtempSync(join(tmpdir(), 'rxagent-oauth-'));
  });
  afterEach(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const auth = (extra: Partial<McpOAuthAuthorizationCode> = {}): McpOAuthAuthorizationCode => ({
    redirectUrl: REDIRECT,
    onAuthorize: browser,
    ...extra,
  });

  it('signs in with PKCE and a state, keeps the tokens in a 0600 file, and needs no sign-in next time', async () => {
    const path = join(dir, 'tokens.json');
    const docs = await connectMcp({
      name: 'docs',
      url: server.url,
      auth: auth({ store: fileTokenStore(path) }),
    });
    try {
      const { text, events } = await callWhoami(docs);
      expect(text).toBe('an authorized client');
      const [request] = server.seen.authorize;
      expect(request?.get('code_challenge_method')).toBe('S256');
      expect(request?.get('state')).toMatch(/^[\w-]{16,}$/);
      expect(request?.get('resource')).toBe(server.url);
      expect(statSync(path).mode & 0o777).toBe(0o600);
      const stored = readFileSync(path, 'utf8');
      for (const token of server.tokens.access) {
        expect(stored).toContain(token);
        expect(JSON.stringify(events)).not.toContain(token);
      }
    } finally {
      await docs.close();
    }
    const again = await connectMcp({
      name: 'docs',
      url: server.url,
      auth: auth({
        store: fileTokenStore(path),
        onAuthorize: () => Promise.reject(new Error('no sign-in expected')),
      }),
    });
    try {
      expect((await callWhoami(again)).text).toBe('an authorized client');
      expect(server.seen.authorize).toHaveLength(1);
      expect(server.seen.registrations).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('refreshes an expired access token without asking the person', async () => {
    const onAuthorize = jest.fn(browser);
    const docs = await connectMcp({ name: 'docs', url: server.url, auth: auth({ onAuthorize }) });
    try {
      server.expireAccessTokens();
      expect((await callWhoami(docs)).text).toBe('an authorized client');
      expect(server.seen.token.map((t) => t.get('grant_type'))).toEqual([
        'authorization_code',
        'refresh_token',
      ]);
      expect(onAuthorize).toHaveBeenCalledTimes(1);
    } finally {
      await docs.close();
    }
  });

  it('asks the person again when the refresh token expired too; a refusal is a readable tool error', async () => {
    let refuse = false;
    const onAuthorize = jest.fn((url: URL) =>
      refuse ? Promise.reject(new Error('The person closed the window.')) : browser(url),
    );
    const docs = await connectMcp({ name: 'docs', url: server.url, auth: auth({ onAuthorize }) });
    try {
      server.expireAccessTokens();
      server.expireRefreshTokens();
      expect((await callWhoami(docs)).text).toBe('an authorized client');
      expect(onAuthorize).toHaveBeenCalledTimes(2);

      refuse = true;
      server.expireAccessTokens();
      server.expireRefreshTokens();
      const { text, last } = await callWhoami(docs);
      expect(text).toMatch(
        /^The MCP server "docs" refused the call to "whoami": Authorization with the MCP server "docs" failed: onAuthorize failed: Error: The person closed the window/,
      );
      expect(last).toMatchObject({ type: 'agent-end', reason: 'completed' });
      expect(docs.status).toBe('connected'); // not a lost connection: no reconnect loop
    } finally {
      await docs.close();
    }
  });

  it('refuses a redirect with a forged state before any code is exchanged', async () => {
    const forged = async (url: URL) => {
      const back = new URL(await browser(url));
      back.searchParams.set('state', 'forged');
      return back.href;
    };
    const error: unknown = await connectMcp({
      name: 'docs',
      url: server.url,
      auth: auth({ onAuthorize: forged }),
    }).catch((e: unknown) => e);
    expect(McpAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/does not carry the state that was sent/);
    expect(server.seen.token).toHaveLength(0);
  });

  it('fails with a typed error when the authorization server answers garbage', async () => {
    server.mode.garbageMetadata = true;
    const error: unknown = await connectMcp({ name: 'docs', url: server.url, auth: auth() }).catch(
      (e: unknown) => e,
    );
    expect(McpAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^Authorization with the MCP server "docs" failed: could not obtain a token: /,
    );
    expect(server.seen.authorize).toHaveLength(0);
  });

  it('never lets a token reach an error, even when the server echoes the request', async () => {
    const docs = await connectMcp({ name: 'docs', url: server.url, auth: auth() });
    try {
      server.mode.echoAuthorization = true;
      const { text, events } = await callWhoami(docs);
      expect(text).toContain('Internal error while handling Bearer [redacted]');
      for (const token of server.tokens.access) {
        expect(text).not.toContain(token);
        expect(JSON.stringify(events)).not.toContain(token);
      }
      expect(text).toContain('[redacted]');
    } finally {
      await docs.close();
    }
    const secret = 'sk-static-header-secret-0123456789';
    const error: unknown = await connectMcp({
      name: 'static',
      url: server.url,
      headers: { 'X-Api-Key': secret },
    }).catch((e: unknown) => e);
    expect(String((error as Error).message)).not.toContain(secret);
  });

  it('sends every request through the fetch hook', async () => {
    const seen: string[] = [];
    const docs = await connectMcp({
      name: 'docs',
      url: server.url,
      auth: auth(),
      fetch: (url, init) => {
        seen.push(new URL(url).pathname);
        return fetch(url, init);
      },
    });
    await docs.close();
    expect(seen).toEqual(
      expect.arrayContaining(['/mcp', '/.well-known/oauth-authorization-server', '/register', '/token']),
    );
  });

  it('signs a CLI in through a loopback redirect listener', async () => {
    const loopback = await loopbackAuthorization({
      // The browser: it follows the redirects to the listener.
      open: (url) => void fetch(url),
    });
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      expect((await fetch(new URL('/elsewhere', loopback.redirectUrl))).status).toBe(404);
      const docs = await connectMcp({
        name: 'docs',
        url: server.url,
        auth: {
          redirectUrl: loopback.redirectUrl,
          onAuthorize: loopback.onAuthorize,
          store: memoryTokenStore(),
        },
      });
      expect((await callWhoami(docs)).text).toBe('an authorized client');
      await docs.close();
    } finally {
      await loopback.close();
    }
  });

  it('refuses an OAuth configuration that cannot work, without quoting its values', async () => {
    await expect(
      connectMcp({ name: 'docs', url: server.url, auth: { redirectUrl: 'not a url', onAuthorize: browser } }),
    ).rejects.toThrow(McpConfigError);
    await expect(
      connectMcp({ name: 'docs', url: server.url, auth: { grant: 'client_credentials', clientId: 'svc' } }),
    ).rejects.toThrow(
      'The MCP server "docs" has an OAuth configuration that needs "clientSecret" or "privateKey".',
    );
  });
});

describe('fileTokenStore', () => {
  it('refuses to overwrite a file that is not a token store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-store-'));
    try {
      const path = join(dir, 'tokens.json');
      writeFileSync(path, '["not", "ours"]');
      const store = fileTokenStore(path);
      await expect(store.save('k', { tokens: { access_token: 'a', token_type: 'Bearer' } })).rejects.toThrow(
        McpConfigError,
      );
      expect(readFileSync(path, 'utf8')).toBe('["not", "ours"]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps several keys, written in order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rxagent-store-'));
    try {
      const store = fileTokenStore(join(dir, 'nested', 'tokens.json'));
      await Promise.all(
        ['a', 'b', 'c'].map(async (key) => {
          await store.save(key, { tokens: { access_token: key, token_type: 'Bearer' } });
        }),
      );
      expect((await store.load('b'))?.tokens?.access_token).toBe('b');
      expect(await store.load('__proto__')).toBeUndefined();
      expect(statSync(join(dir, 'nested')).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
