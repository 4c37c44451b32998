import { AgentConfigError } from '../errors/agent-errors.js';
import { checkDeferredFlag } from './deferred-flag.js';
import { TOOL_SEARCH_NAME } from './tool-search.js';

/**
 * Throws an `AgentConfigError`, before the run starts, when tools are deferred but no
 * `tool_search` tool is there to activate them: they could never be called.
 *
 * @example
 * checkDeferredTools(config.tools ?? []);
 */
export function checkDeferredTools(tools: readonly unknown[]): void {
  const named = tools.filter(
    (t): t is { name?: unknown; deferred?: unknown } => typeof t === 'object' && t !== null,
  );
  for (const t of named) checkDeferredFlag(t.deferred, t.name);
  const deferred = named.filter((t) => t.deferred === true).map((t) => `"${String(t.name)}"`);
  if (deferred.length === 0 || named.some((t) => t.name === TOOL_SEARCH_NAME)) return;
  throw new AgentConfigError(
    `The tools ${deferred.join(', ')} are deferred but the run has no "${TOOL_SEARCH_NAME}" tool to activate them: ` +
      'pass the tools through withToolSearch(tools).',
  );
}
