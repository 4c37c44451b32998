import { AgentConfigError } from '../errors/agent-errors.js';
import { inputGuard } from '../operators/input-guard.js';
import { llmStep } from '../operators/llm-step.js';
import { outputGuard } from '../operators/output-guard.js';
import type { LoopOperator } from '../turn/loop-item.js';
import type { Pipeline, RunAgentConfig } from '../turn/run-config.js';

/**
 * The model call of the default pipeline: `llmStep()`, guarded by the config's
 * `inputGuardrails` when there are any.
 *
 * @example
 * operators.push(guardedModelCall(config));
 */
export function guardedModelCall(config: RunAgentConfig): LoopOperator {
  const guardrails = config.inputGuardrails ?? [];
  return guardrails.length > 0 ? inputGuard(guardrails, { call: llmStep() }) : llmStep();
}

/**
 * The config's `outputGuardrails` as an operator, if any.
 *
 * @example
 * const guard = outputGuardOf(config);
 */
export function outputGuardOf(config: RunAgentConfig): LoopOperator | undefined {
  const guardrails = config.outputGuardrails ?? [];
  return guardrails.length > 0 ? outputGuard(guardrails) : undefined;
}

/**
 * A custom pipeline with the config's guardrails honoured around it: input guardrails before
 * it, output guardrails after it (tool guardrails are read by its `executeTools()`). Parallel
 * input guardrails need the model call to race, which a custom pipeline owns: they are refused.
 *
 * @example
 * const pipeline = withConfigGuardrails(config, config.pipeline);
 */
export function withConfigGuardrails(config: RunAgentConfig, custom: Pipeline): Pipeline {
  const input = config.inputGuardrails ?? [];
  const parallel = input.find((g) => g?.parallel);
  if (parallel) {
    throw new AgentConfigError(
      `The parallel input guardrail "${parallel.name}" races the model call, which a custom pipeline owns: ` +
        'put inputGuard(guardrails, { call: llmStep() }) in the pipeline in place of llmStep(), ' +
        'and remove inputGuardrails from the config.',
    );
  }
  const before = input.length > 0 ? inputGuard(input) : undefined;
  const after = outputGuardOf(config);
  if (!before && !after) return custom;
  return (turn$) => {
    const out$ = custom(before ? before(turn$) : turn$);
    return after ? after(out$) : out$;
  };
}
