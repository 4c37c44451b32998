import type { AgentEvent } from '../events/agent-event.js';
import type { ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { ToolCallPart } from '../messages/types.js';
import type { Turn } from '../turn/turn.js';
import type { ExecuteToolsOptions } from './execute-tools.js';
import type { ToolCallEnv } from './run-tool-call.js';

/**
 * What one call of `turn` needs to run through its pipeline, with `options` over the run's
 * settings: the same for a call `executeTools` starts and for an eager call a model call starts.
 *
 * @example
 * runToolCall(toolCallEnv(turn, call, options, guard, { progress, onPromise }));
 */
export function toolCallEnv(
  turn: Turn,
  call: ToolCallPart,
  options: ExecuteToolsOptions,
  guard: ToolGuardEnv | undefined,
  report: { progress: (event: AgentEvent) => void; onPromise: (toolName: string) => void },
): ToolCallEnv {
  const { run } = turn;
  const defaults = run.settings.tools;
  const tool = turn.tools.get(call.name);
  return {
    runId: run.runId,
    call,
    tool,
    tools: turn.tools,
    scheduler: run.scheduler,
    messages: turn.messages,
    timeoutMs: tool?.timeoutMs ?? options.timeoutMs ?? defaults.timeoutMs,
    approvalRequired: (options.approvalRequired ?? defaults.approvalRequired).includes(call.name),
    approver: options.approver ?? defaults.approver,
    ...(defaults.elicit ? { elicit: defaults.elicit } : {}),
    toolGate: options.toolGate ?? defaults.toolGate,
    middlewares: options.middlewares ?? defaults.middlewares,
    ...(guard ? { guard } : {}),
    progress: report.progress,
    onPromise: report.onPromise,
    lineage: run.lineage,
    ...(defaults.toolScope ? { toolScope: defaults.toolScope } : {}),
  };
}
