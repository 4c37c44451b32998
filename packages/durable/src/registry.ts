import type { AnyTool, ChatModel, OutputSchema, Pipeline } from '@rxagent/core';
import type { ContextManager } from '@rxagent/core/context';
import type { InputGuardrail, OutputGuardrail, ToolGuardrail } from '@rxagent/core/guardrails';
import { DurableUsageError } from './durable-errors.js';
import { toDurableTool, type DurableTool } from './durable-tool.js';

/**
 * What a worker registers besides models and tools, by the names run specs use. Context
 * managers and pipelines are factories, called once for each execution of a run: they may keep
 * per-run memory in their closures.
 *
 * @example
 * const extras: WorkerRegistrations = {
 *   guardrails: { input: [noSecretsInPrompt], output: [politeAnswer] },
 *   contextManagers: { compact: () => contextManager({ model: summaryModel }) },
 *   outputSchemas: { ticket: z.object({ title: z.string(), priority: z.number() }) },
 * };
 */
export interface WorkerRegistrations {
  /** Guardrails by their `name`: input, output and tool guardrails. */
  guardrails?: {
    input?: readonly InputGuardrail[];
    output?: readonly OutputGuardrail[];
    tool?: readonly ToolGuardrail[];
  };
  /** Context managers, by name: a factory per run execution. */
  contextManagers?: Readonly<Record<string, () => ContextManager>>;
  /** Pipelines (loop bodies), by name: a factory per run execution. */
  pipelines?: Readonly<Record<string, () => Pipeline>>;
  /** Output schemas (zod or JSON Schema), by name. */
  outputSchemas?: Readonly<Record<string, OutputSchema>>;
}

/** A worker's registry: everything a run spec may name, by name. */
export interface Registry {
  models: Map<string, ChatModel>;
  tools: Map<string, DurableTool>;
  inputGuardrails: Map<string, InputGuardrail>;
  outputGuardrails: Map<string, OutputGuardrail>;
  toolGuardrails: Map<string, ToolGuardrail>;
  contextManagers: Map<string, () => ContextManager>;
  pipelines: Map<string, () => Pipeline>;
  outputSchemas: Map<string, OutputSchema>;
}

/** The registry's names other than models and tools, as the workers table stores them. */
export type RegistryNames = Record<
  | 'inputGuardrails'
  | 'outputGuardrails'
  | 'toolGuardrails'
  | 'contextManagers'
  | 'pipelines'
  | 'outputSchemas',
  string[]
>;

function byName<T extends { name: string }>(kind: string, list: readonly T[] | undefined): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of list ?? []) {
    if (typeof item?.name !== 'string' || item.name === '')
      throw new DurableUsageError(`startWorker: every ${kind} guardrail needs a name.`);
    if (map.has(item.name))
      throw new DurableUsageError(`startWorker: two ${kind} guardrails are named "${item.name}".`);
    map.set(item.name, item);
  }
  return map;
}

function factories<T>(kind: string, record: Readonly<Record<string, T>> | undefined): Map<string, T> {
  const map = new Map(Object.entries(record ?? {}));
  for (const [name, value] of map) {
    if (typeof value !== 'function')
      throw new DurableUsageError(`startWorker: ${kind}.${name} must be a function that makes one per run.`);
  }
  return map;
}

/** Checks and indexes what `startWorker` was given. */
export function buildRegistry(
  options: {
    models: Readonly<Record<string, ChatModel>>;
    tools?: readonly (AnyTool | DurableTool)[];
  } & WorkerRegistrations,
): Registry {
  const models = new Map(Object.entries(options.models ?? {}));
  if (models.size === 0)
    throw new DurableUsageError('startWorker needs at least one model: models: { main: model }.');
  for (const [name, model] of models) {
    if (typeof model?.stream !== 'function')
      throw new DurableUsageError(`startWorker: models.${name} is not a ChatModel.`);
  }
  const tools = new Map<string, DurableTool>();
  for (const entry of options.tools ?? []) {
    const durable = toDurableTool(entry);
    if (tools.has(durable.tool.name))
      throw new DurableUsageError(`startWorker: two tools are named "${durable.tool.name}".`);
    tools.set(durable.tool.name, durable);
  }
  const outputSchemas = new Map(Object.entries(options.outputSchemas ?? {}));
  return {
    models,
    tools,
    inputGuardrails: byName('input', options.guardrails?.input),
    outputGuardrails: byName('output', options.guardrails?.output),
    toolGuardrails: byName('tool', options.guardrails?.tool),
    contextManagers: factories('contextManagers', options.contextManagers),
    pipelines: factories('pipelines', options.pipelines),
    outputSchemas,
  };
}

/** The names of a registry other than models and tools. */
export function registryNames(registry: Registry): RegistryNames {
  return {
    inputGuardrails: [...registry.inputGuardrails.keys()],
    outputGuardrails: [...registry.outputGuardrails.keys()],
    toolGuardrails: [...registry.toolGuardrails.keys()],
    contextManagers: [...registry.contextManagers.keys()],
    pipelines: [...registry.pipelines.keys()],
    outputSchemas: [...registry.outputSchemas.keys()],
  };
}
