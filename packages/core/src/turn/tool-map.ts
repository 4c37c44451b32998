import { AgentConfigError } from '../errors/agent-errors.js';
import { checkEagerFlag } from '../tools/eager-flag.js';
import type { AnyTool } from '../tools/tool.js';

const NO_TOOLS: ReadonlyMap<string, AnyTool> = new Map([]);

/** The run's tools by name, checked (each well formed, names unique, eager ones allowed to be). */
export function toolMap(tools: readonly AnyTool[] | undefined): ReadonlyMap<string, AnyTool> {
  if (!tools || tools.length === 0) return NO_TOOLS;
  const map = new Map<string, AnyTool>();
  for (const tool of tools) {
    if (!tool || typeof tool.name !== 'string' || !tool.name || typeof tool.execute !== 'function') {
      throw new AgentConfigError(
        'Every tool needs a non-empty "name" and an "execute" function: define tools with tool({...}).',
      );
    }
    if (map.has(tool.name)) {
      throw new AgentConfigError(
        `Two tools are named "${tool.name}": tool names must be unique within a run.`,
      );
    }
    checkEagerFlag(tool);
    map.set(tool.name, tool);
  }
  return map;
}
