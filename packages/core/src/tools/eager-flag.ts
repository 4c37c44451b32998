import { AgentConfigError } from '../errors/agent-errors.js';

/** What `checkEagerFlag` reads of a tool. */
interface EagerFields {
  name?: unknown;
  eager?: unknown;
  concurrencySafe?: unknown;
  needsApproval?: unknown;
}

/**
 * Throws an `AgentConfigError` unless a tool's `eager` flag is absent, `false`, or `true` on a
 * tool that may run beside others and needs no approval: an eager call starts while the model
 * still streams, before anyone could approve it or run it alone. `approvalRequired` is the run's
 * list of tools that always need approval (an eager tool must not be on it).
 *
 * @example
 * checkEagerFlag(definition);
 * checkEagerFlag(tool, config.approvalRequired);
 */
export function checkEagerFlag(tool: EagerFields, approvalRequired: readonly unknown[] = []): void {
  const { eager, name } = tool;
  if (eager === undefined || eager === false) return;
  const label = `Tool "${String(name)}"`;
  if (eager !== true) {
    throw new AgentConfigError(
      `${label}: eager must be true or false (true starts a call as soon as its arguments are complete in the ` +
        `model's stream); received ${JSON.stringify(eager) ?? typeof eager}.`,
    );
  }
  if (tool.concurrencySafe !== undefined && tool.concurrencySafe !== true) {
    throw new AgentConfigError(
      `${label} is eager but not concurrencySafe: an eager call starts while the model streams and runs beside ` +
        'the other calls, so it cannot run alone. Remove concurrencySafe (or set it to true), or remove eager.',
    );
  }
  if (tool.needsApproval !== undefined && tool.needsApproval !== false) {
    throw new AgentConfigError(
      `${label} is eager but needs approval: an eager call starts before the model's message is complete, ` +
        'before anyone could approve it. Remove needsApproval, or remove eager.',
    );
  }
  if (approvalRequired.includes(name)) {
    throw new AgentConfigError(
      `${label} is eager but listed in approvalRequired: an eager call starts before the model's message is ` +
        'complete, before anyone could approve it. Remove it from approvalRequired, or remove eager from the tool.',
    );
  }
}
