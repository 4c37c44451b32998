import {
  costBudget,
  defaultPipeline,
  jsonSchema,
  MessageQueue,
  tokenBudget,
  type OutputSchema,
  type Pipeline,
  type RunAgentConfig,
  type StopCondition,
} from '@rxagent/core';
import type { Pool } from 'pg';
import { durableApprover } from './durable-approver.js';
import { durableContextManager } from './durable-context.js';
import { durableGuardrails } from './durable-guardrails.js';
import { durableModel } from './durable-model.js';
import type { DurableTool } from './durable-tool.js';
import { durableToolStep } from './durable-tool-step.js';
import { DurableUsageError } from './durable-errors.js';
import type { EventListener } from './event-listener.js';
import type { Registry } from './registry.js';
import type { RunControl } from './run-control.js';
import type { RunRecords } from './run-records.js';
import { takeRunMessages } from './run-messages.js';
import type { DurableRunSpec } from './run-spec.js';

/** Default wait of a durable approval: 7 days. */
const APPROVAL_TIMEOUT_MS = 7 * 24 * 3600 * 1000;

/** What building a run's config needs of its worker. */
export interface ConfigEnv {
  pool: Pool;
  registry: Registry;
  decisions: EventListener;
}

function lookup<T>(map: ReadonlyMap<string, T>, name: string, kind: string): T {
  const found = map.get(name);
  if (found === undefined) {
    throw new DurableUsageError(
      `This worker does not register the ${kind} "${name}": every worker must register the same names.`,
    );
  }
  return found;
}

/**
 * The `runAgent` config of a durable run: everything its spec names, from this worker's
 * registry, with the seams made durable (model steps, tool and approval rows, recorded
 * guardrail checks and context projections) and the run's messages taken at the end of each
 * step. The default loop body is built here (with the context manager and the input and output
 * guardrails), so the step's end can follow it; a named pipeline gets the guardrails from the
 * config, as in `runAgent`.
 */
export function durableRunConfig(
  env: ConfigEnv,
  spec: DurableRunSpec,
  control: RunControl,
  /** What the execution found recorded, and where it records. */
  records: RunRecords,
  /** DBOS's ownership token of this execution of the run. */
  ownerXid: string,
): RunAgentConfig {
  const { registry, pool } = env;
  const model = lookup(registry.models, spec.model, 'model');
  const tools = (spec.tools ?? []).map((name) => lookup<DurableTool>(registry.tools, name, 'tool').tool);
  const guard = durableGuardrails(records);
  const input = (spec.inputGuardrails ?? []).map((n) =>
    guard.input(lookup(registry.inputGuardrails, n, 'input guardrail')),
  );
  const output = (spec.outputGuardrails ?? []).map((n) =>
    guard.output(lookup(registry.outputGuardrails, n, 'output guardrail')),
  );
  const toolGuardrails = (spec.toolGuardrails ?? []).map((n) =>
    guard.tool(lookup(registry.toolGuardrails, n, 'tool guardrail')),
  );
  const manager =
    spec.contextManager !== undefined
      ? durableContextManager(
          lookup(registry.contextManagers, spec.contextManager, 'context manager')(),
          records,
        )
      : undefined;
  const guardrails = {
    ...(input.length > 0 ? { inputGuardrails: input } : {}),
    ...(output.length > 0 ? { outputGuardrails: output } : {}),
  };
  const body: Pipeline =
    spec.pipeline !== undefined
      ? lookup(registry.pipelines, spec.pipeline, 'pipeline')()
      : defaultPipeline({ model, ...guardrails, ...(manager ? { contextManager: manager } : {}) });
  const queues = { steer: new MessageQueue(), followUp: new MessageQueue() };
  const takeMessages = takeRunMessages(control, pool, queues);
  const stopWhen: StopCondition[] = [];
  if (spec.budget?.maxTokens !== undefined) stopWhen.push(tokenBudget(spec.budget.maxTokens));
  if (spec.budget?.maxCostUsd !== undefined) stopWhen.push(costBudget(spec.budget.maxCostUsd));
  const durabilityOf = (name: string) => registry.tools.get(name)?.durability ?? 'at-most-once';
  return {
    runId: control.runId,
    model: durableModel(model, control, records, ownerXid),
    tools,
    middlewares: [durableToolStep(durabilityOf, records)],
    approver: durableApprover(spec.approvalTimeoutMs ?? APPROVAL_TIMEOUT_MS, control, pool, env.decisions),
    signal: control.abort.signal,
    pipeline: (turn$) => takeMessages(body(turn$)),
    // With a named pipeline, the config's guardrails wrap it (as runAgent does); the default body has them.
    ...(spec.pipeline !== undefined ? guardrails : {}),
    ...(toolGuardrails.length > 0 ? { toolGuardrails } : {}),
    steering$: queues.steer,
    steeringMode: 'after-turn',
    followUp$: queues.followUp,
    ...(stopWhen.length > 0 ? { stopWhen } : {}),
    ...(spec.output !== undefined ? { output: outputSchema(registry, spec.output) } : {}),
    ...pick(spec, [
      'system',
      'prompt',
      'messages',
      'maxSteps',
      'maxRetries',
      'retryBackoff',
      'toolTimeoutMs',
      'approvalRequired',
      'maxTokens',
      'temperature',
      'toolConcurrency',
      'maxToolErrors',
      'onGuardrailTrip',
      'outputMode',
      'maxOutputRetries',
    ]),
  };
}

function outputSchema(registry: Registry, output: NonNullable<DurableRunSpec['output']>): OutputSchema {
  if (typeof output === 'string') return lookup(registry.outputSchemas, output, 'output schema');
  return jsonSchema(output.jsonSchema);
}

function pick<K extends keyof DurableRunSpec>(
  spec: DurableRunSpec,
  keys: readonly K[],
): Pick<DurableRunSpec, K> {
  const out: Partial<Pick<DurableRunSpec, K>> = {};
  for (const key of keys) if (spec[key] !== undefined) out[key] = spec[key];
  return out as Pick<DurableRunSpec, K>;
}
