import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RichToolOutput } from '@rxagent/core/provider';
import type { ToolContext } from '@rxagent/core';
import {
  asyncScheduler,
  BehaviorSubject,
  distinctUntilChanged,
  filter,
  map,
  of,
  retry,
  switchMap,
  take,
  timer,
  Observable,
  type Subscription,
} from 'rxjs';
import { callOnSession } from './call-on-session.js';
import { McpConfigError, McpConnectionError } from './mcp-errors.js';
import { isStdioServer, type McpServerConfig } from './mcp-server-config.js';
import { buildMcpTools, type McpTool, type SkippedMcpTool } from './mcp-tool.js';
import { listAllTools, openSession, type McpSession } from './open-session.js';
import { checkPrefix, defaultPrefix } from './tool-names.js';

/**
 * Where a connection is: `connected`; `reconnecting` after a drop (calls wait for it, within
 * their timeout); `failed` when the reconnect attempts ran out; `closed` after `close()`.
 *
 * @example
 * connection.status$.subscribe((s) => s === 'failed' && console.error('server gone'));
 */
export type McpConnectionStatus = 'connected' | 'reconnecting' | 'failed' | 'closed';

type State =
  | { readonly status: 'connected'; readonly session: McpSession }
  | { readonly status: 'reconnecting' }
  | { readonly status: 'failed' | 'closed' };

/**
 * Options of `connectMcp` besides the server itself.
 *
 * @example
 * const options: ConnectMcpOptions = { prefixByDefault: true };
 */
export interface ConnectMcpOptions {
  /** Prefix tool names with the server's name unless the config says otherwise (off by default, `mcpTools` included). */
  prefixByDefault?: boolean;
}

// Query strings and user info may carry tokens: messages show only where the server is.
function publicUrl(url: string | URL): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function checkServer(server: McpServerConfig): void {
  if (typeof server?.name !== 'string' || !server.name.trim()) {
    throw new McpConfigError(
      'Every MCP server needs a "name" (it names the server in tool names and messages).',
    );
  }
  if (isStdioServer(server)) {
    if (!server.command.trim()) {
      throw new McpConfigError(
        `The MCP server "${server.name}" has an empty "command": give the program to start.`,
      );
    }
  } else if (
    typeof (server as { url?: unknown }).url !== 'string' &&
    !((server as { url?: unknown }).url instanceof URL)
  ) {
    throw new McpConfigError(
      `The MCP server "${server.name}" needs either "command" (stdio) or "url" (Streamable HTTP).`,
    );
  } else {
    try {
      new URL(server.url);
    } catch {
      throw new McpConfigError(
        `The MCP server "${server.name}" has an invalid "url": give an absolute http(s) URL.`,
      );
    }
  }
  if (typeof server.prefix === 'string') checkPrefix(server.prefix, server.name);
}

/**
 * A live connection to one MCP server, made by `connectMcp`. Its `tools` follow the server's
 * tool list (refreshed when the server says it changed); a dropped connection is re-opened
 * with backoff (a stdio server's process is restarted); `close()` stops everything.
 *
 * @example
 * const everything = await connectMcp({ name: 'everything', command: 'node', args: [serverPath, 'stdio'] });
 * const agent = new Agent({ model, tools: everything.tools });
 * await everything.close();
 */
export class McpConnection {
  private readonly state$: BehaviorSubject<State>;
  private readonly toolList$: BehaviorSubject<readonly McpTool[]>;
  private skippedTools: readonly SkippedMcpTool[] = [];
  private reconnecting?: Subscription;
  private refreshing = Promise.resolve();
  private lastError?: unknown;
  private readonly prefix: string | undefined;

  /** @internal Use `connectMcp`. */
  constructor(
    readonly server: McpServerConfig,
    session: McpSession,
    options: ConnectMcpOptions,
  ) {
    this.state$ = new BehaviorSubject<State>({ status: 'connected', session });
    this.toolList$ = new BehaviorSubject<readonly McpTool[]>([]);
    this.prefix =
      server.prefix === false
        ? undefined
        : (server.prefix ?? (options.prefixByDefault ? defaultPrefix(server.name) : undefined));
  }

  /** The server's configured name. */
  get name(): string {
    return this.server.name;
  }

  /** `[name]`: the servers whose tools this connection gives (see `refreshMcpTools`). */
  get serverNames(): readonly string[] {
    return [this.server.name];
  }

  /** The tools as of now (a new array after each change of the server's list). */
  get tools(): readonly McpTool[] {
    return this.toolList$.value;
  }

  /** The tool list: the current one at once, then each change. */
  get tools$(): Observable<readonly McpTool[]> {
    return this.toolList$.asObservable();
  }

  /** Server tools left out, with why (a schema that does not compile, a name taken twice). */
  get skipped(): readonly SkippedMcpTool[] {
    return this.skippedTools;
  }

  get status(): McpConnectionStatus {
    return this.state$.value.status;
  }

  /** The status: the current one at once, then each change. */
  get status$(): Observable<McpConnectionStatus> {
    return this.state$.pipe(
      map((s) => s.status),
      distinctUntilChanged(),
    );
  }

  /** The official SDK client of the live session (undefined while reconnecting or closed). */
  get client(): Client | undefined {
    const state = this.state$.value;
    return state.status === 'connected' ? state.session.client : undefined;
  }

  /** @internal Reads the tool list of the session (first connection, listChanged, reconnection). */
  async loadTools(session: McpSession): Promise<void> {
    const wire = await listAllTools(session);
    const state = this.state$.value;
    if (state.status !== 'connected' || state.session !== session) return;
    const { tools, skipped } = buildMcpTools(this.server, this.prefix, wire, (name, args, ctx) =>
      this.call(name, args, ctx),
    );
    this.skippedTools = skipped;
    this.toolList$.next(tools);
  }

  /**
   * Reads the server's tool list again now (the server's `listChanged` notification does this
   * by itself). Resolves when the new list is in `tools`.
   *
   * @example
   * await connection.refreshTools();
   */
  refreshTools(): Promise<void> {
    const state = this.state$.value;
    if (state.status !== 'connected') return Promise.resolve();
    // One refresh at a time, in order: a late answer never overwrites a newer list.
    this.refreshing = this.refreshing
      .then(() => this.loadTools(state.session))
      .catch((error: unknown) => {
        this.lastError = error;
      });
    return this.refreshing;
  }

  /**
   * Resolves when the tool list reads that are under way (a `listChanged` notification, a
   * reconnection) are done, so that `tools` is as the server last announced.
   *
   * @example
   * await connection.whenSettled();
   */
  whenSettled(): Promise<void> {
    return this.refreshing;
  }

  /** @internal Runs one tool call, waiting for a reconnection in progress. */
  call(name: string, args: Record<string, unknown>, ctx: ToolContext): Observable<RichToolOutput> {
    // A closed connection's subjects are complete: answer from the current state instead.
    if (this.state$.value.status === 'closed') {
      return of({ content: [{ type: 'text', text: this.unavailable(name, 'closed') }], isError: true });
    }
    return this.state$.pipe(
      filter((s): s is Exclude<State, { status: 'reconnecting' }> => s.status !== 'reconnecting'),
      take(1),
      switchMap((state) =>
        state.status === 'connected'
          ? callOnSession(state.session, this.name, name, args, ctx, (s) => this.lost(s))
          : of<RichToolOutput>({
              content: [{ type: 'text', text: this.unavailable(name, state.status) }],
              isError: true,
            }),
      ),
    );
  }

  private unavailable(tool: string, status: 'failed' | 'closed'): string {
    if (status === 'closed')
      return `The MCP server "${this.name}" is closed: "${tool}" cannot be called any more.`;
    const why = this.lastError instanceof Error ? ` (${this.lastError.message})` : '';
    return `The MCP server "${this.name}" is unavailable: reconnecting failed${why}. "${tool}" cannot be called.`;
  }

  /** @internal The session dropped (process exit, transport failure): reconnect with backoff. */
  lost(session: McpSession): void {
    const state = this.state$.value;
    if (state.status !== 'connected' || state.session !== session) return;
    this.state$.next({ status: 'reconnecting' });
    void session.client.close().catch(() => undefined);
    const { maxAttempts = 5, initialDelayMs = 500, maxDelayMs = 30_000 } = this.server.reconnect ?? {};
    const scheduler = this.server.scheduler ?? asyncScheduler;
    if (maxAttempts <= 0) {
      this.state$.next({ status: 'failed' });
      return;
    }
    const delay = (attempt: number) => Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
    this.reconnecting = timer(delay(1), scheduler)
      .pipe(
        switchMap(() => this.openUnlessDropped()),
        retry({ count: maxAttempts - 1, delay: (_error, n) => timer(delay(n + 1), scheduler) }),
      )
      .subscribe({
        next: (next) => {
          this.state$.next({ status: 'connected', session: next });
          void this.refreshTools();
        },
        error: (error: unknown) => {
          this.lastError = error;
          if (this.state$.value.status === 'reconnecting') this.state$.next({ status: 'failed' });
        },
      });
  }

  /** A session as an Observable: one that opens after unsubscribe (close() came first) is closed at once. */
  private openUnlessDropped(): Observable<McpSession> {
    return new Observable<McpSession>((subscriber) => {
      let dropped = false;
      this.open().then(
        (session) => {
          if (dropped) void session.client.close().catch(() => undefined);
          else {
            subscriber.next(session);
            subscriber.complete();
          }
        },
        (error: unknown) => subscriber.error(error),
      );
      return () => {
        dropped = true;
      };
    });
  }

  /** @internal Opens a session to this connection's server. */
  open(): Promise<McpSession> {
    return openSession(this.server, {
      onClosed: (session) => this.lost(session),
      onToolsChanged: () => void this.refreshTools(),
    });
  }

  /**
   * Stops the connection: a stdio server's process is ended, pending reconnects are dropped,
   * calls in flight end as error results. Nothing is left running. Safe to call twice.
   *
   * @example
   * await connection.close();
   */
  async close(): Promise<void> {
    const state = this.state$.value;
    if (state.status === 'closed') return;
    this.state$.next({ status: 'closed' });
    this.reconnecting?.unsubscribe();
    if (state.status === 'connected') await state.session.client.close().catch(() => undefined);
    this.state$.complete();
    this.toolList$.complete();
  }

  /** `await using connection = await connectMcp(...)` closes it at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Connects to one MCP server (starting its process for stdio) and lists its tools. Rejects
 * with an `McpConnectionError` when the server cannot be started or reached, with an
 * `McpConfigError` for a configuration that cannot work. A server alone gets no name prefix
 * unless its config gives one.
 *
 * @example
 * const files = await connectMcp({ name: 'files', command: 'npx', args: ['-y', 'some-mcp-server'] });
 * runAgent({ model, prompt: 'List the files', tools: files.tools });
 */
export async function connectMcp(
  server: McpServerConfig,
  options: ConnectMcpOptions = {},
): Promise<McpConnection> {
  checkServer(server);
  let session: McpSession | undefined;
  let connection: McpConnection | undefined;
  const early: McpSession[] = [];
  try {
    // The first session's hooks reach the connection once it exists.
    session = await openSession(server, {
      onClosed: (s) => (connection ? connection.lost(s) : early.push(s)),
      onToolsChanged: () => void connection?.refreshTools(),
    });
    connection = new McpConnection(server, session, options);
    await connection.loadTools(session);
    if (early.length > 0) connection.lost(session);
    return connection;
  } catch (error) {
    await (connection ? connection.close() : session?.client.close().catch(() => undefined));
    const where = isStdioServer(server) ? `start "${server.command}"` : `reach ${publicUrl(server.url)}`;
    throw new McpConnectionError(
      server.name,
      `Could not connect to the MCP server "${server.name}": failed to ${where}: ` +
        `${error instanceof Error ? error.message : String(error)}. Check the command or URL, and that the server speaks MCP.`,
      { cause: error },
    );
  }
}
