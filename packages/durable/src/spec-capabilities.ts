import { DurableRunSpecError } from './durable-errors.js';
import type { RegistryNames } from './registry.js';
import type { DurableRunSpec, RegisteredNames } from './run-spec.js';

/** Every field of a `DurableRunSpec`. */
const FIELDS = new Set<string>([
  'runId',
  'model',
  'tools',
  'system',
  'prompt',
  'messages',
  'maxSteps',
  'maxRetries',
  'retryBackoff',
  'toolTimeoutMs',
  'approvalRequired',
  'approvalTimeoutMs',
  'maxTokens',
  'temperature',
  'toolConcurrency',
  'maxToolErrors',
  'inputGuardrails',
  'outputGuardrails',
  'toolGuardrails',
  'onGuardrailTrip',
  'contextManager',
  'pipeline',
  'output',
  'outputMode',
  'maxOutputRetries',
  'budget',
  'steeringMode',
]);

/** `runAgent` options a durable run does not take, and what to do instead. */
const IN_PROCESS_ONLY: Readonly<Record<string, string>> = {
  steering$: 'send steering messages with runs.steer(runId, message)',
  followUp$: 'send follow-ups with runs.followUp(runId, message)',
  approver: 'decide approvals from any process with runs.approve / runs.reject',
  stopWhen: 'stop predicates are functions: use maxSteps or budget: { maxTokens, maxCostUsd }',
  guardStop: 'stop guards are functions, which a spec cannot carry; they are not supported in durable runs',
  middlewares: 'tool middlewares are functions: wrap the tool itself before registering it in the workers',
  toolGate: 'a tool gate is a function: use approvalRequired, or a tool guardrail registered in the workers',
  elicit: 'elicitation needs a person at the process that runs the call; it is not supported in durable runs',
  signal: 'cancel a durable run with runs.cancel(runId)',
  scheduler: "a durable run runs on its worker's clock",
  instrument: 'instrument the workers, or watch the run with runs.watchRun(runId)',
  onSnapshot: 'a durable run is checkpointed in PostgreSQL at every step already',
  lineage: 'sub-runs of a durable run are started by its tools',
  random: "jitter uses the worker's random numbers",
  prices: 'prices are set where the models are registered',
  steering: 'send steering messages with runs.steer(runId, message)',
};

function fail(message: string): never {
  throw new DurableRunSpecError(message);
}

function names(spec: DurableRunSpec, key: keyof DurableRunSpec): string[] {
  const value = spec[key];
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    fail(`DurableRunSpec.${key} must be an array of names registered in the workers.`);
  return value as unknown as string[];
}

function registered(
  kind: keyof RegistryNames,
  field: string,
  wanted: readonly string[],
  known: RegisteredNames,
  option: string,
): void {
  const have = known.named?.[kind] ?? new Set<string>();
  const missing = wanted.filter((n) => !have.has(n));
  if (missing.length === 0) return;
  const list = [...have].map((n) => `"${n}"`).join(', ') || 'none';
  fail(
    `No worker registered the ${field} ${missing.map((n) => `"${n}"`).join(', ')} (registered: ${list}). ` +
      `Register it in startWorker({ ${option} }) of every worker.`,
  );
}

/**
 * Checks what a spec asks of the run beyond models and tools: every field known (a `runAgent`
 * option a durable run does not take is named, with what to do instead), every guardrail,
 * context manager, pipeline and output schema registered, and the combinations the loop
 * refuses refused here, before anything is enqueued.
 */
export function checkCapabilities(spec: DurableRunSpec, known: RegisteredNames): void {
  for (const key of Object.keys(spec)) {
    if (FIELDS.has(key)) continue;
    const instead = IN_PROCESS_ONLY[key];
    fail(
      instead
        ? `Durable runs do not support "${key}": ${instead}.`
        : `DurableRunSpec has no field "${key}": a durable run does not support it.`,
    );
  }
  registered(
    'inputGuardrails',
    'input guardrail',
    names(spec, 'inputGuardrails'),
    known,
    'guardrails: { input: [...] }',
  );
  registered(
    'outputGuardrails',
    'output guardrail',
    names(spec, 'outputGuardrails'),
    known,
    'guardrails: { output: [...] }',
  );
  registered(
    'toolGuardrails',
    'tool guardrail',
    names(spec, 'toolGuardrails'),
    known,
    'guardrails: { tool: [...] }',
  );
  for (const [field, kind, option] of [
    ['contextManager', 'contextManagers', 'contextManagers: { name: () => manager }'],
    ['pipeline', 'pipelines', 'pipelines: { name: () => pipeline }'],
  ] as const) {
    const value = spec[field];
    if (value === undefined) continue;
    if (typeof value !== 'string')
      fail(`DurableRunSpec.${field} must be the name of one registered in the workers.`);
    registered(kind, field === 'contextManager' ? 'context manager' : 'pipeline', [value], known, option);
  }
  if (spec.contextManager !== undefined && spec.pipeline !== undefined) {
    fail(
      'A durable run with a named pipeline cannot also name a contextManager: the manager is read by the ' +
        'default pipeline only; put compactContext(manager) in the registered pipeline instead.',
    );
  }
  const output = spec.output;
  if (typeof output === 'string')
    registered('outputSchemas', 'output schema', [output], known, 'outputSchemas: { … }');
  else if (output !== undefined) {
    const schema = (output as { jsonSchema?: unknown }).jsonSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
      fail(
        'DurableRunSpec.output must be a registered schema\'s name or { jsonSchema: { type: "object", … } }.',
      );
  }
  if (spec.outputMode !== undefined && !['auto', 'native', 'tool'].includes(spec.outputMode))
    fail(
      `DurableRunSpec.outputMode must be 'auto', 'native' or 'tool'; got ${JSON.stringify(spec.outputMode)}.`,
    );
  if (spec.onGuardrailTrip !== undefined && !['stop', 'error'].includes(spec.onGuardrailTrip))
    fail(
      `DurableRunSpec.onGuardrailTrip must be 'stop' or 'error'; got ${JSON.stringify(spec.onGuardrailTrip)}.`,
    );
  if (spec.steeringMode !== undefined && spec.steeringMode !== 'after-turn') {
    fail(
      `Durable runs do not support steeringMode ${JSON.stringify(spec.steeringMode)}: where an interrupt lands ` +
        'depends on timing a replay after a crash cannot repeat. Use the queue mode, ' +
        "steeringMode 'after-turn' (or leave it out: it is the default of durable runs): messages wait for the end " +
        'of the step, a point the run records, so a replay delivers them at the same place.',
    );
  }
  if (
    spec.maxOutputRetries !== undefined &&
    !(Number.isInteger(spec.maxOutputRetries) && spec.maxOutputRetries >= 0)
  )
    fail(
      `DurableRunSpec.maxOutputRetries must be an integer ≥ 0; got ${JSON.stringify(spec.maxOutputRetries)}.`,
    );
  const budget = spec.budget;
  if (budget !== undefined) {
    const ok =
      typeof budget === 'object' &&
      budget !== null &&
      Object.keys(budget).every((k) => k === 'maxTokens' || k === 'maxCostUsd') &&
      Object.values(budget).every((v) => typeof v === 'number' && v > 0);
    if (!ok) fail('DurableRunSpec.budget must be { maxTokens?: number > 0, maxCostUsd?: number > 0 }.');
  }
}
