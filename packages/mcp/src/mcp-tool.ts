import { jsonSchema, tool, type Tool, type ToolContext } from '@rxagent/core';
import type { RichToolOutput } from '@rxagent/core/provider';
import type { Tool as McpWireTool } from '@modelcontextprotocol/sdk/types.js';
import type { Observable } from 'rxjs';
import type { McpApproval, McpServerConfig, McpToolInfo } from './mcp-server-config.js';
import { matchesAny } from './name-pattern.js';
import { modelToolName } from './tool-names.js';

/**
 * An rxagent tool backed by an MCP server's tool. `mcp` says which server and tool it is and
 * carries the annotations the server declares, for permission policies (`toolGate`).
 *
 * @example
 * const gate: ToolGate = ({ tool }) =>
 *   isMcpTool(tool) && tool.mcp.annotations.destructiveHint ? { allowed: false, reason: 'destructive' } : undefined;
 */
export type McpTool = Tool<Record<string, unknown>, RichToolOutput> & { readonly mcp: McpToolInfo };

/**
 * True for a tool that comes from an MCP server (and narrows it to `McpTool`).
 *
 * @example
 * const readOnly = tools.filter((t) => isMcpTool(t) && t.mcp.annotations.readOnlyHint === true);
 */
export function isMcpTool(value: unknown): value is McpTool {
  const mcp = (value as { mcp?: Partial<McpToolInfo> } | null | undefined)?.mcp;
  return (
    typeof mcp === 'object' && mcp !== null && typeof mcp.server === 'string' && typeof mcp.name === 'string'
  );
}

/** Calls a tool on the server by its server-side name. */
export type CallMcpTool = (
  name: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
) => Observable<RichToolOutput>;

/**
 * A server tool left out, with why (a schema ajv cannot compile, a name collision).
 *
 * @example
 * for (const skipped of toolset.skipped) console.warn(`${skipped.name}: ${skipped.reason}`);
 */
export interface SkippedMcpTool {
  readonly name: string;
  readonly reason: string;
}

function needsApproval(approval: McpApproval | undefined, info: McpToolInfo): boolean {
  if (approval === undefined || approval === false) return false;
  if (approval === true) return true;
  if (typeof approval === 'function') return approval(info) === true;
  return matchesAny(info.name, approval);
}

// Draft 2020-12 and 2019-09 markers make the draft-07 validator refuse schemas that are
// otherwise fine; MCP servers built on zod 4 send them.
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

/** Builds the rxagent tools for a server's tool list; what cannot be built is skipped, not fatal. */
export function buildMcpTools(
  server: McpServerConfig,
  prefix: string | undefined,
  wireTools: readonly McpWireTool[],
  call: CallMcpTool,
): { tools: McpTool[]; skipped: SkippedMcpTool[] } {
  const tools: McpTool[] = [];
  const skipped: SkippedMcpTool[] = [];
  const names = new Set<string>();
  for (const wire of wireTools) {
    if (server.include && !matchesAny(wire.name, server.include)) continue;
    if (server.exclude && matchesAny(wire.name, server.exclude)) continue;
    const name = modelToolName(prefix, wire.name);
    if (names.has(name)) {
      skipped.push({
        name: wire.name,
        reason: `its name "${name}" is already taken by another tool of the server`,
      });
      continue;
    }
    const info: McpToolInfo = {
      server: server.name,
      name: wire.name,
      ...(wire.title ? { title: wire.title } : {}),
      annotations: { ...(wire.annotations ?? {}) },
      ...(wire.outputSchema ? { outputSchema: wire.outputSchema } : {}),
    };
    try {
      const built = tool({
        name,
        description:
          wire.description ?? wire.title ?? `Tool "${wire.name}" of the MCP server "${server.name}".`,
        parameters: jsonSchema<Record<string, unknown>>(withoutDialect(wire.inputSchema)),
        execute: (args: Record<string, unknown>, ctx: ToolContext) => call(wire.name, args, ctx),
        needsApproval: needsApproval(server.needsApproval, info),
        ...(server.timeoutMs !== undefined ? { timeoutMs: server.timeoutMs } : {}),
        ...(server.interrupt ? { interrupt: server.interrupt } : {}),
      });
      tools.push(Object.assign(built, { mcp: info }));
      names.add(name);
    } catch (error) {
      skipped.push({ name: wire.name, reason: error instanceof Error ? error.message : String(error) });
    }
  }
  return { tools, skipped };
}
