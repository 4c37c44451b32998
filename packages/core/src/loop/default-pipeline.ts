import { AgentConfigError } from '../errors/agent-errors.js';
import { compactContext } from '../operators/compact-context.js';
import { executeTools } from '../operators/execute-tools.js';
import { stopWhen } from '../operators/stop-when.js';
import type { Pipeline, RunAgentConfig } from '../turn/run-config.js';
import type { LoopOperator } from '../turn/loop-item.js';
import { runStopConditions } from '../stop/run-stop-conditions.js';
import { guardedModelCall, outputGuardOf, withConfigGuardrails } from './guardrail-pipeline.js';

/**
 * The loop body `runAgent` uses without `pipeline`: `compactContext` (with a
 * `contextManager`) → `llmStep` (inside `inputGuard` with `inputGuardrails`) → `executeTools`
 * → `outputGuard` (with `outputGuardrails`) → `stopWhen` (with `stopWhen`, `maxBudgetUsd`). Steering,
 * follow-ups, stop guards and `maxSteps` apply to every pipeline.
 *
 * @example
 * runAgent({ ...config, pipeline: (t$) => defaultPipeline(config)(t$).pipe(tap(console.log)) });
 */
export function defaultPipeline(config: RunAgentConfig): Pipeline {
  return (turn$) => {
    const operators: LoopOperator[] = [];
    if (config.contextManager) operators.push(compactContext(config.contextManager));
    operators.push(guardedModelCall(config), executeTools());
    const guard = outputGuardOf(config);
    if (guard) operators.push(guard);
    const conditions = runStopConditions(config);
    if (conditions.length > 0) operators.push(stopWhen(conditions));
    return operators.reduce((stream$, operator) => operator(stream$), turn$);
  };
}

/**
 * The pipeline a run uses: the config's own (with the config's `stopWhen` honoured after it),
 * or the default. A `contextManager` with a custom pipeline is refused: where the projection
 * goes is the pipeline's choice.
 */
export function resolvePipeline(config: RunAgentConfig): Pipeline {
  if (!config.pipeline) return defaultPipeline(config);
  const custom = withConfigGuardrails(config, config.pipeline);
  if (config.contextManager) {
    throw new AgentConfigError(
      'contextManager is only read by the default pipeline: with a custom pipeline, put compactContext(manager) ' +
        'in it before llmStep() and remove contextManager from the config.',
    );
  }
  const conditions = runStopConditions(config);
  if (conditions.length === 0) return custom;
  return (turn$) => stopWhen(conditions)(custom(turn$));
}
