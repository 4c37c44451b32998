// An MCP server behind OAuth, with its authorization server, on one node:http port, for the
// failure cases the conformance suite does not stage: expired tokens, a forged redirect, an
// authorization server answering garbage, a resource server echoing the request. The MCP side
// is the official SDK's server (stateless Streamable HTTP); the OAuth side is written here.
import { createHash, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

export interface OAuthTestServer {
  readonly url: string;
  readonly base: string;
  readonly seen: {
    authorize: URLSearchParams[];
    token: URLSearchParams[];
    registrations: number;
  };
  /** The next tokens issued, and the valid ones. */
  readonly tokens: { access: Set<string>; refresh: Set<string> };
  /** What the server does wrong. */
  mode: {
    garbageMetadata?: boolean;
    /** The MCP endpoint answers 500 with the request's Authorization header in the body. */
    echoAuthorization?: boolean;
  };
  expireAccessTokens(): void;
  expireRefreshTokens(): void;
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    req.setEncoding('utf8').on('data', (c: string) => (text += c));
    req.on('end', () => resolve(text));
  });
}

const json = (res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(value));

function mcpServer(): McpServer {
  const server = new McpServer({ name: 'protected', version: '1.0.0' });
  server.registerTool('whoami', { description: 'Says who is calling' }, () =>
    Promise.resolve({ content: [{ type: 'text' as const, text: 'an authorized client' }] }),
  );
  return server;
}

/** Starts the servers on 127.0.0.1: the MCP endpoint is `<base>/mcp`, the issuer `<base>`. */
export async function startOAuthTestServer(): Promise<OAuthTestServer> {
  const codes = new Map<string, { challenge: string; redirectUri: string }>();
  const tokens = { access: new Set<string>(), refresh: new Set<string>() };
  const seen = { authorize: [] as URLSearchParams[], token: [] as URLSearchParams[], registrations: 0 };
  const mode: OAuthTestServer['mode'] = {};
  let base = '';

  const issue = (res: ServerResponse) => {
    const access = `at-${randomUUID()}`;
    const refresh = `rt-${randomUUID()}`;
    tokens.access.add(access);
    tokens.refresh.add(refresh);
    json(res, 200, { access_token: access, token_type: 'Bearer', expires_in: 3600, refresh_token: refresh });
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', base);
    void (async () => {
      if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
        return json(res, 200, { resource: `${base}/mcp`, authorization_servers: [base] });
      }
      if (url.pathname === '/.well-known/oauth-authorization-server') {
        if (mode.garbageMetadata)
          return res.writeHead(200, { 'Content-Type': 'application/json' }).end('<html>oops');
        return json(res, 200, {
          issuer: base,
          authorization_endpoint: `${base}/authorize`,
          token_endpoint: `${base}/token`,
          registration_endpoint: `${base}/register`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          grant_types_supported: ['authorization_code', 'refresh_token'],
        });
      }
      if (url.pathname === '/register') {
        seen.registrations += 1;
        const metadata = JSON.parse(await body(req)) as Record<string, unknown>;
        return json(res, 201, {
          ...metadata,
          client_id: `client-${randomUUID()}`,
          token_endpoint_auth_method: 'none',
        });
      }
      if (url.pathname === '/authorize') {
        seen.authorize.push(url.searchParams);
        const code = `code-${randomUUID()}`;
        const redirectUri = url.searchParams.get('redirect_uri') ?? '';
        codes.set(code, { challenge: url.searchParams.get('code_challenge') ?? '', redirectUri });
        const back = new URL(redirectUri);
        back.searchParams.set('code', code);
        back.searchParams.set('state', url.searchParams.get('state') ?? '');
        return res.writeHead(302, { Location: back.href }).end();
      }
      if (url.pathname === '/token') {
        const form = new URLSearchParams(await body(req));
        seen.token.push(form);
        if (form.get('grant_type') === 'authorization_code') {
          const code = codes.get(form.get('code') ?? '');
          const verifier = form.get('code_verifier') ?? '';
          const challenge = createHash('sha256').update(verifier).digest('base64url');
          if (!code || code.challenge !== challenge) return json(res, 400, { error: 'invalid_grant' });
          codes.delete(form.get('code') ?? '');
          return issue(res);
        }
        if (form.get('grant_type') === 'refresh_token') {
          const refresh = form.get('refresh_token') ?? '';
          if (!tokens.refresh.delete(refresh)) {
            return json(res, 400, {
              error: 'invalid_grant',
              error_description: 'The refresh token expired.',
            });
          }
          return issue(res);
        }
        return json(res, 400, { error: 'unsupported_grant_type' });
      }
      if (url.pathname === '/mcp') {
        const authorization = req.headers.authorization ?? '';
        if (mode.echoAuthorization)
          return res.writeHead(500).end(`Internal error while handling ${authorization}`);
        if (!tokens.access.has(authorization.replace(/^Bearer /, ''))) {
          return json(
            res,
            401,
            { error: 'invalid_token' },
            {
              'WWW-Authenticate': `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
            },
          );
        }
        const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
        const mcp = mcpServer();
        res.on('close', () => void mcp.close());
        await mcp.connect(transport);
        const text = await body(req);
        return transport.handleRequest(req, res, text ? (JSON.parse(text) as unknown) : undefined);
      }
      res.writeHead(404).end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/mcp`,
    base,
    seen,
    tokens,
    mode,
    expireAccessTokens: () => tokens.access.clear(),
    expireRefreshTokens: () => tokens.refresh.clear(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
