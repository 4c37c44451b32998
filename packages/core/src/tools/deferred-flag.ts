import { AgentConfigError } from '../errors/agent-errors.js';

/**
 * Throws an `AgentConfigError` unless a tool's `deferred` flag is absent, `true` or `false`.
 *
 * @example
 * checkDeferredFlag(definition.deferred, definition.name);
 */
export function checkDeferredFlag(deferred: unknown, toolName: unknown): void {
  if (deferred === undefined || typeof deferred === 'boolean') return;
  throw new AgentConfigError(
    `Tool "${String(toolName)}": deferred must be true or false (true keeps its schema out of requests until ` +
      `tool_search activates it); received ${JSON.stringify(deferred) ?? typeof deferred}.`,
  );
}
