import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpAuthError } from '../mcp-errors.js';

/**
 * Options of `loopbackAuthorization`.
 *
 * @example
 * const options: LoopbackAuthorizationOptions = { port: 8976, open: (url) => openInBrowser(url) };
 */
export interface LoopbackAuthorizationOptions {
  /** Port on 127.0.0.1 (default 0: a free one). A fixed port keeps the registered redirect the same across runs. */
  port?: number;
  /** Path of the redirect (default `/callback`). */
  path?: string;
  /** Shows the sign-in page (open a browser). Default: the URL is written to stderr. */
  open?: (authorizationUrl: URL) => void | Promise<void>;
}

/**
 * A redirect listener on 127.0.0.1 for a CLI's sign-in (RFC 8252): its `redirectUrl` and
 * `onAuthorize` go into an MCP server's `auth`; `close()` stops it.
 *
 * @example
 * await using loopback = await loopbackAuthorization({ port: 8976 });
 * await connectMcp({ name: 'docs', url, auth: { redirectUrl: loopback.redirectUrl, onAuthorize: loopback.onAuthorize } });
 */
export interface LoopbackAuthorization {
  readonly redirectUrl: string;
  /** Opens the sign-in page and resolves with the redirect the browser comes back with. */
  readonly onAuthorize: (authorizationUrl: URL) => Promise<string>;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

const PAGE = (text: string) => `<!doctype html><meta charset="utf-8"><title>rxagent</title><p>${text}</p>`;

/**
 * Starts a redirect listener on 127.0.0.1 for the OAuth sign-in of a command-line program:
 * `onAuthorize` shows the sign-in page (`open`) and waits for the browser to come back to
 * `redirectUrl`, answering it with a page saying it can be closed. Only that path is
 * answered; the redirect's code and state are checked by the MCP connection, not here.
 *
 * @param options Port, path, and how to show the page.
 * @return The listener (listening until `close()`).
 *
 * @example
 * const loopback = await loopbackAuthorization({ port: 8976, open: (url) => execFile('xdg-open', [url.href]) });
 * const docs = await connectMcp({ name: 'docs', url, auth: { redirectUrl: loopback.redirectUrl, onAuthorize: loopback.onAuthorize } });
 * await loopback.close();
 */
export async function loopbackAuthorization(
  options: LoopbackAuthorizationOptions = {},
): Promise<LoopbackAuthorization> {
  const path = options.path ?? '/callback';
  const waiting = new Set<{ resolve(url: string): void; reject(error: Error): void }>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', `http://127.0.0.1`);
    if (req.method !== 'GET' || url.pathname !== path) {
      res.writeHead(404).end();
      return;
    }
    const failed = url.searchParams.has('error');
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' })
      .end(
        PAGE(
          failed
            ? 'The sign-in did not succeed. You can close this window.'
            : 'Signed in. You can close this window.',
        ),
      );
    const returned = `${redirectUrl}${url.search}`;
    for (const wait of waiting) wait.resolve(returned);
    waiting.clear();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const redirectUrl = `http://127.0.0.1:${port}${path}`;
  const open =
    options.open ??
    ((url: URL) => void process.stderr.write(`Open this URL to sign in to the MCP server:\n${url.href}\n`));
  const close = () =>
    new Promise<void>((resolve) => {
      for (const wait of waiting)
        wait.reject(
          new McpAuthError('loopback', 'The sign-in listener was closed before the browser came back.'),
        );
      waiting.clear();
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return {
    redirectUrl,
    onAuthorize: async (authorizationUrl) => {
      const back = new Promise<string>((resolve, reject) => waiting.add({ resolve, reject }));
      await open(authorizationUrl);
      return back;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
