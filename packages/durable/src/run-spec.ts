import type { AgentMessage, OutputMode, RetryBackoff, UserInput } from '@rxagent/core';
import type { GuardrailTripMode } from '@rxagent/core/guardrails';
import { DurableRunSpecError } from './durable-errors.js';
import type { RegistryNames } from './registry.js';
import { checkCapabilities } from './spec-capabilities.js';

/**
 * A durable run as data: what `startRun` stores and any worker can execute. Models and tools
 * are named, not passed: each worker registers them under these names (`startWorker`).
 *
 * @example
 * const spec: DurableRunSpec = {
 *   model: 'main', tools: ['append_line'], system: 'You keep a log.', prompt: 'Log "deployed".', maxSteps: 5,
 * };
 */
export interface DurableRunSpec {
  /** The run's id (the workflow's id); default a random UUID. Reusing one makes `startRun` idempotent. */
  runId?: string;
  /** A model name registered in the workers. */
  model: string;
  /** Tool names registered in the workers. */
  tools?: readonly string[];
  system?: string;
  prompt?: UserInput | AgentMessage | AgentMessage[];
  messages?: readonly AgentMessage[];
  /** Model calls at most (default 10). */
  maxSteps?: number;
  /** Retries of a retryable model failure (default 3); each attempt is its own step. */
  maxRetries?: number;
  retryBackoff?: RetryBackoff;
  /** Per-call timeout (default 30 000 ms). */
  toolTimeoutMs?: number;
  /** Tool names that always wait for `approve` / `reject`. */
  approvalRequired?: readonly string[];
  /** How long an approval may wait before it counts as a rejection (default 7 days). */
  approvalTimeoutMs?: number;
  maxTokens?: number;
  temperature?: number;
  /** Tool calls of one step running at once (default 8, as in `runAgent`); each call's record is keyed by its id. */
  toolConcurrency?: number;
  /** Consecutive failures of one tool that disable it for the rest of the run (default 3). */
  maxToolErrors?: number;
  /** Input guardrails registered in the workers (`guardrails.input`), by name. */
  inputGuardrails?: readonly string[];
  /** Output guardrails registered in the workers, by name. */
  outputGuardrails?: readonly string[];
  /** Tool guardrails registered in the workers, by name. */
  toolGuardrails?: readonly string[];
  /** What a tripped guardrail does (default `'stop'`). */
  onGuardrailTrip?: GuardrailTripMode;
  /** A context manager registered in the workers (`contextManagers`), by name. */
  contextManager?: string;
  /** A pipeline registered in the workers (`pipelines`), by name, in place of the default loop body. */
  pipeline?: string;
  /** The final answer's shape: a schema registered in the workers (`outputSchemas`) by name, or a JSON Schema. */
  output?: string | { jsonSchema: Record<string, unknown> };
  outputMode?: OutputMode;
  maxOutputRetries?: number;
  /** Stops the run (`agent-end` with the budget's reason) once it spent this much, sub-runs included. */
  budget?: { maxTokens?: number; maxCostUsd?: number };
  /**
   * When steering messages (`runs.steer`) are delivered: `'after-turn'`, the only mode of a
   * durable run, after the step's tool calls (the default; `'interrupt'` is refused).
   */
  steeringMode?: 'after-turn';
}

/** What the workers registered, as `startRun` checks a spec against it. */
export interface RegisteredNames {
  models: ReadonlySet<string>;
  tools: ReadonlySet<string>;
  /** Guardrails, context managers, pipelines and output schemas, by registry kind. */
  named?: Readonly<Partial<Record<keyof RegistryNames, ReadonlySet<string>>>>;
}

function positive(spec: DurableRunSpec, key: keyof DurableRunSpec, integer: boolean): void {
  const value = spec[key];
  if (value === undefined) return;
  if (typeof value !== 'number' || !(value > 0) || (integer && !Number.isInteger(value))) {
    throw new DurableRunSpecError(
      `DurableRunSpec.${key} must be a positive ${integer ? 'integer' : 'number'}; got ${JSON.stringify(value)}.`,
    );
  }
}

/**
 * Checks a spec before it is stored: names known to the workers, numbers in range, and data
 * that survives JSON (a function or a class instance would not reach the worker).
 */
export function checkRunSpec(spec: DurableRunSpec, names: RegisteredNames): void {
  if (typeof spec !== 'object' || spec === null) {
    throw new DurableRunSpecError(
      'startRun needs a DurableRunSpec object, e.g. { model: "main", prompt: "Hi" }.',
    );
  }
  if (typeof spec.model !== 'string' || !names.models.has(spec.model)) {
    const known = [...names.models].map((m) => `"${m}"`).join(', ') || 'none';
    throw new DurableRunSpecError(
      `No worker registered the model ${JSON.stringify(spec.model)} (registered: ${known}). ` +
        'Register it in startWorker({ models: { … } }) of every worker, or name a registered one.',
    );
  }
  const unknown = (spec.tools ?? []).filter((t) => !names.tools.has(t));
  if (unknown.length > 0) {
    const known = [...names.tools].map((t) => `"${t}"`).join(', ') || 'none';
    throw new DurableRunSpecError(
      `No worker registered the tool${unknown.length > 1 ? 's' : ''} ${unknown.map((t) => `"${t}"`).join(', ')} ` +
        `(registered: ${known}). Register it in startWorker({ tools: [...] }) of every worker.`,
    );
  }
  if (
    spec.runId !== undefined &&
    (typeof spec.runId !== 'string' || spec.runId.length === 0 || spec.runId.length > 200)
  ) {
    throw new DurableRunSpecError(
      'DurableRunSpec.runId must be a non-empty string of at most 200 characters.',
    );
  }
  const hasMessages = Array.isArray(spec.messages) && spec.messages.length > 0;
  if ((spec.prompt === undefined || spec.prompt === '') && !hasMessages) {
    throw new DurableRunSpecError('A durable run needs a prompt or prior messages: { model, prompt: "…" }.');
  }
  positive(spec, 'maxSteps', true);
  positive(spec, 'toolTimeoutMs', false);
  positive(spec, 'approvalTimeoutMs', false);
  positive(spec, 'maxTokens', true);
  positive(spec, 'toolConcurrency', true);
  positive(spec, 'maxToolErrors', true);
  checkCapabilities(spec, names);
  if (spec.maxRetries !== undefined && !(Number.isInteger(spec.maxRetries) && spec.maxRetries >= 0)) {
    throw new DurableRunSpecError(
      `DurableRunSpec.maxRetries must be an integer ≥ 0; got ${JSON.stringify(spec.maxRetries)}.`,
    );
  }
  const text = JSON.stringify(spec);
  const roundTrip = JSON.stringify(JSON.parse(text));
  if (text !== roundTrip || hasFunction(spec)) {
    throw new DurableRunSpecError(
      'A DurableRunSpec must be plain JSON data: it is stored and read by another process.',
    );
  }
}

function hasFunction(value: unknown): boolean {
  if (typeof value === 'function') return true;
  if (typeof value !== 'object' || value === null) return false;
  return Object.values(value).some(hasFunction);
}
