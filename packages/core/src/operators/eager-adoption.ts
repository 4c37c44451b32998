import type { Observable } from 'rxjs';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { ToolCallPart } from '../messages/types.js';
import type { CallItem } from '../tools/call-settled.js';
import type { EagerHandle } from '../turn/eager-handle.js';
import type { Turn } from '../turn/turn.js';
import type { ExecuteToolsOptions } from './execute-tools.js';

/** What `executeTools` would run differently from how the eager calls ran, if anything. */
function conflict(
  turn: Turn,
  options: ExecuteToolsOptions,
  eager: EagerHandle,
  guard: ToolGuardEnv | undefined,
  started: readonly ToolCallPart[],
): string | undefined {
  const run = turn.run.settings.tools;
  const fix = (key: string) =>
    `executeTools({ ${key} }) would run them otherwise: give ${key} in the run's config (runAgent({ ${key} })) ` +
    'rather than to executeTools(), or remove eager from those tools.';
  if (options.middlewares && options.middlewares !== run.middlewares) return fix('middlewares');
  if (options.toolGate && options.toolGate !== run.toolGate) return fix('toolGate');
  if (started.some((c) => options.approvalRequired?.includes(c.name))) return fix('approvalRequired');
  const guardrails = guard?.guardrails ?? [];
  if (guardrails.length !== eager.guardrails.length || guardrails.some((g, i) => g !== eager.guardrails[i]))
    return (
      'tool guardrails were added after the model call (toolGuard() after llmStep(), or executeTools({ guardrails })): ' +
      "put toolGuard() before llmStep() or give them in the run's config (toolGuardrails)."
    );
  return undefined;
}

/**
 * The calls of the batch that a model call started early (eager tools), adopted from the turn:
 * for each call, its running execution or undefined (the batch runs it). The ones the message
 * does not have (or has with other arguments) are aborted. Throws a `PipelineError` when the
 * batch's options would run the adopted calls otherwise than they ran (another gate,
 * middlewares, approvals or tool guardrails than the run's).
 *
 * @example
 * const early = adoptEagerCalls(turn, calls, options, guard, progress);
 */
export function adoptEagerCalls(
  turn: Turn,
  calls: readonly ToolCallPart[],
  options: ExecuteToolsOptions,
  guard: ToolGuardEnv | undefined,
  progress: (event: AgentEvent) => void,
): (Observable<CallItem> | undefined)[] | undefined {
  const eager = turn.eager;
  if (!eager) return undefined;
  const adopted = calls.map((call) => eager.adopt(call, progress));
  eager.dropUnadopted();
  const started = calls.filter((_, i) => adopted[i] !== undefined);
  if (started.length === 0) return undefined;
  const problem = conflict(turn, options, eager, guard, started);
  if (problem) {
    eager.abandon();
    const names = [...new Set(started.map((c) => `"${c.name}"`))].join(', ');
    throw new PipelineError(
      `The calls of the eager tools ${names} started while the model streamed, with the run's tool settings, but ${problem}`,
    );
  }
  return adopted;
}
