import { of } from 'rxjs';
import { validateExecuteToolsOptions } from './validate-operator-options.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { LoopOperator } from '../turn/loop-item.js';
import { toolCalls } from '../messages/message-helpers.js';
import type { Approver, ToolGate, ToolMiddleware } from '../tools/tool-hooks.js';
import { runToolBatch } from './tool-batch.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import { checkGuardrailList } from '../guardrails/check-guardrail-list.js';
import { turnOperator } from './turn-operator.js';

export {
  CANCELLED_FOR_STEERING_TEXT,
  SKIPPED_FOR_STEERING_TEXT,
  SKIPPED_FOR_STOP_TEXT,
} from './tool-batch.js';

/**
 * Options of `executeTools`; each defaults to the run's config.
 *
 * @example
 * executeTools({ concurrency: 2, timeoutMs: 5000, approvalRequired: ['bash'], approver });
 */
export interface ExecuteToolsOptions {
  /** Calls running at once (default 8; Infinity: no limit). */
  concurrency?: number;
  /** Per-call timeout (default 30 000 ms; Infinity: none); a tool's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Consecutive failures that disable a tool for the rest of the run (default 3; 0 = never). */
  maxToolErrors?: number;
  approver?: Approver;
  approvalRequired?: readonly string[];
  toolGate?: ToolGate;
  middlewares?: readonly ToolMiddleware[];
  /** Tool guardrails, after the run's `toolGuardrails` and those `toolGuard()` added. */
  guardrails?: readonly ToolGuardrail[];
}

/**
 * Runs the tool calls of the turn's model message: each through validation, hooks,
 * approval, gate and middlewares, up to `concurrency` at once, a call whose tool is not
 * `concurrencySafe` alone. `tool-end` events come in completion order; the results enter the
 * transcript in call order once all are done, then the turn goes on with them. Failures are
 * error results the model reads, never a failed run. A steering message (interrupt mode)
 * skips the calls not started and cancels running `interrupt: 'cancel'` tools; `AgentStop`
 * ends the run after this turn; a turn whose every call was rejected ends with `rejected`.
 * Put it after `llmStep()`: a turn without the model's message is a `PipelineError`.
 *
 * @param options Concurrency, timeout, approvals, gate and middlewares.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools({ concurrency: 2, timeoutMs: 5000 })) });
 */
export function executeTools(options: ExecuteToolsOptions = {}): LoopOperator {
  validateExecuteToolsOptions(options);
  checkGuardrailList('executeTools.guardrails', options.guardrails, ['before', 'after'], false);
  return turnOperator('executeTools', (turn) => {
    if (!turn.assistant && turn.stop) return of(turn); // stopped before its model call
    if (!turn.assistant) {
      throw new PipelineError(
        "executeTools() received a turn without the model's message: put executeTools() after llmStep() in the pipeline.",
      );
    }
    if (turn.toolResults) {
      throw new PipelineError(
        'executeTools() received a turn whose tools already ran: keep a single executeTools() in the pipeline.',
      );
    }
    const calls = toolCalls(turn.assistant);
    return calls.length === 0 ? of(turn.withToolResults([])) : runToolBatch(turn, calls, options);
  });
}
