import { combineLatest, map, type Observable } from 'rxjs';
import { McpConfigError } from './mcp-errors.js';
import { connectMcp } from './connect-mcp.js';
import type { McpConnection } from './mcp-connection.js';
import type { McpServerConfig } from './mcp-server-config.js';
import type { McpTool } from './mcp-tool.js';

/** Tools of several servers together; the first server wins a name two of them share. */
function merge(lists: readonly (readonly McpTool[])[]): readonly McpTool[] {
  const seen = new Set<string>();
  return lists.flat().filter((tool) => !seen.has(tool.name) && seen.add(tool.name));
}

/**
 * The tools of several MCP servers, made by `mcpTools`: `tools` follows every server's list,
 * `close()` closes every connection.
 *
 * @example
 * const mcp = await mcpTools([{ name: 'a', command: 'server-a' }, { name: 'b', url: 'http://127.0.0.1:3001/mcp' }]);
 * runAgent({ model, prompt, tools: [...mcp.tools, myTool] });
 * await mcp.close();
 */
export class McpToolset {
  /** @internal Use `mcpTools`. */
  constructor(readonly connections: readonly McpConnection[]) {}

  /** The configured names of the servers. */
  get serverNames(): readonly string[] {
    return this.connections.map((c) => c.name);
  }

  /** Every server's tools as of now. */
  get tools(): readonly McpTool[] {
    return merge(this.connections.map((c) => c.tools));
  }

  /** Every server's tools: now, then after each change of any server's list. */
  get tools$(): Observable<readonly McpTool[]> {
    return combineLatest(this.connections.map((c) => c.tools$)).pipe(map(merge));
  }

  /**
   * Resolves when every server's tool list reads under way are done.
   *
   * @example
   * await mcp.whenSettled();
   */
  async whenSettled(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.whenSettled()));
  }

  /**
   * The connection to the server of that name.
   *
   * @example
   * await mcp.connection('docs')?.refreshTools();
   */
  connection(name: string): McpConnection | undefined {
    return this.connections.find((c) => c.name === name);
  }

  /**
   * Closes every connection (stdio servers' processes end). Safe to call twice.
   *
   * @example
   * await mcp.close();
   */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  /** `await using mcp = await mcpTools(...)` closes every server at the end of the scope. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

function checkNames(servers: readonly McpServerConfig[]): void {
  if (!Array.isArray(servers)) {
    throw new McpConfigError('mcpTools() takes an array of server configurations.');
  }
  const names = new Set<string>();
  for (const server of servers) {
    const name = (server as { name?: unknown } | undefined)?.name;
    if (typeof name === 'string' && names.has(name)) {
      throw new McpConfigError(`Two MCP servers are named "${name}": give each server its own name.`);
    }
    if (typeof name === 'string') names.add(name);
  }
}

function checkCollisions(connections: readonly McpConnection[]): void {
  const owner = new Map<string, string>();
  for (const connection of connections) {
    for (const tool of connection.tools) {
      const other = owner.get(tool.name);
      if (other !== undefined) {
        throw new McpConfigError(
          `The MCP servers "${other}" and "${connection.name}" both give a tool named "${tool.name}": ` +
            'give one of them a different "prefix".',
        );
      }
      owner.set(tool.name, connection.name);
    }
  }
}

/**
 * Connects to every server at once and gives their tools. A tool keeps the server's name for it
 * unless the server's config gives a `prefix` (`<prefix>_<tool>`, within the 64 characters
 * providers allow), however many servers there are: adding a server never renames the tools of
 * the others. A name clash between servers is an `McpConfigError` naming both (give one of them
 * a `prefix`). If one server fails to connect, the others are closed and the error is thrown.
 *
 * @example
 * const mcp = await mcpTools([
 *   { name: 'everything', command: 'node', args: [everythingPath, 'stdio'] },
 *   { name: 'docs', url: 'http://127.0.0.1:3001/mcp', prefix: 'docs', needsApproval: ['write_*'] },
 * ]);
 * const run$ = runAgent({ model, prompt: 'Add 2 and 3', tools: mcp.tools });
 */
export async function mcpTools(servers: readonly McpServerConfig[]): Promise<McpToolset> {
  checkNames(servers);
  // Names never depend on the number of servers: no default prefix (`prefix` is explicit).
  const settled = await Promise.allSettled(servers.map((server) => connectMcp(server)));
  const connections = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  try {
    if (failed) throw failed.reason;
    checkCollisions(connections);
  } catch (error) {
    await Promise.all(connections.map((c) => c.close()));
    throw error;
  }
  return new McpToolset(connections);
}
