import type { RunAgentConfig, Pipeline } from './run-config.js';
import type { LoopOperator } from './loop-event.js';
import { compactContext } from '../operators/compact-context.js';
import { llmStep } from '../operators/llm-step.js';
import { executeTools } from '../operators/execute-tools.js';
import { stopWhen } from '../operators/stop-when.js';

/**
 * The loop body `runAgent` uses without `pipeline`: `compactContext` (with a
 * `contextManager`) → `llmStep` → `executeTools` → `stopWhen` (with `stopWhen`). Steering,
 * follow-ups, stop guards and `maxSteps` apply to every pipeline.
 *
 * @example
 * runAgent({ ...config, pipeline: (t$) => defaultPipeline(config)(t$).pipe(tap(console.log)) });
 */
export function defaultPipeline(config: RunAgentConfig): Pipeline {
  return (turn$) => {
    const operators: LoopOperator[] = [];
    if (config.contextManager) operators.push(compactContext(config.contextManager));
    operators.push(llmStep(), executeTools());
    const conditions = config.stopWhen === undefined ? [] : [config.stopWhen].flat();
    if (conditions.length > 0) operators.push(stopWhen(conditions));
    return operators.reduce((stream$, operator) => operator(stream$), turn$);
  };
}
