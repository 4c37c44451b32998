import { RxAgentError } from '@rxagent/core';

/**
 * A `TaskRuntime` was used after `dispose()`.
 *
 * @example
 * try { tasks.start(spec); } catch (e) { if (TaskRuntimeDisposedError.isInstance(e)) tasks = new TaskRuntime(); }
 */
export class TaskRuntimeDisposedError extends RxAgentError {
  static override readonly kind: string = 'TaskRuntimeDisposedError';
  constructor() {
    super('The task runtime was disposed (its agent was disposed): create a new TaskRuntime to start tasks.');
  }
}

/**
 * `subagentTool` or `TaskRuntime` was configured wrongly; the message says what to fix.
 *
 * @example
 * try { subagentTool({ agents: {} }); } catch (e) { if (SubagentConfigError.isInstance(e)) console.error(e.message); }
 */
export class SubagentConfigError extends RxAgentError {
  static override readonly kind: string = 'SubagentConfigError';
}
