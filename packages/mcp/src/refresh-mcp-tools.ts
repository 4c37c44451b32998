import { isTurn, type AnyTool, type LoopOperator, type Turn } from '@rxagent/core';
import { concatMap, from, map, of } from 'rxjs';
import { isMcpTool, type McpTool } from './mcp-tool.js';

/**
 * Anything that has a current MCP tool list: a connection or a toolset.
 *
 * @example
 * const source: McpToolSource = connection; // an McpConnection or an McpToolset
 */
export interface McpToolSource {
  readonly tools: readonly McpTool[];
  /** The servers whose tools this source owns. */
  readonly serverNames: readonly string[];
  /** Resolves when tool list reads under way are done. */
  whenSettled(): Promise<void>;
}

function sameTools(a: readonly AnyTool[], b: readonly AnyTool[]): boolean {
  return a.length === b.length && a.every((tool, i) => tool === b[i]);
}

/**
 * A pipeline operator that gives each turn, before its model call, the MCP tools as they are
 * now: tools a server added since the run started become callable, removed ones disappear.
 * The run's other tools are kept. It waits for list reads under way (a `listChanged` that
 * arrived with the last result). Put it before `llmStep()`.
 *
 * @example
 * runAgent({
 *   model, prompt, tools: [...mcp.tools, myTool],
 *   pipeline: (turn$) => turn$.pipe(refreshMcpTools(mcp), llmStep(), executeTools()),
 * });
 */
export function refreshMcpTools(source: McpToolSource): LoopOperator {
  return concatMap((item) =>
    isTurn(item) ? from(source.whenSettled()).pipe(map(() => withLatestTools(item, source))) : of(item),
  );
}

function withLatestTools(item: Turn, source: McpToolSource): Turn {
  const current = [...item.tools.values()];
  const servers = new Set(source.serverNames);
  const own = current.filter((t) => isMcpTool(t) && servers.has(t.mcp.server));
  const latest = source.tools;
  if (sameTools(own, latest)) return item;
  const others = current.filter((t) => !own.includes(t));
  // A tool of the run's own keeps its name: a server tool that collides with it is left out.
  const taken = new Set(others.map((t) => t.name));
  return item.withTools([...others, ...latest.filter((t) => !taken.has(t.name))]);
}
