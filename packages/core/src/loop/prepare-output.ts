import { AgentConfigError } from '../errors/agent-errors.js';
import type { LoopOperator } from '../turn/loop-item.js';
import type { Pipeline, RunAgentConfig } from '../turn/run-config.js';
import type { JSONSchema, ResponseFormat } from '../model/chat-model.js';
import { finalAnswerTool } from '../output/final-answer-tool.js';
import { resolveOutputMode } from '../output/output-mode.js';
import { resolveOutput } from '../output/output-schema.js';
import { closeObjects, toStrictJsonSchema } from '../output/strict-json-schema.js';
import { structuredOutput, type OutputSpec } from '../operators/structured-output.js';

/** The tool a run with `output` in tool mode adds for its answer. */
export const FINAL_TOOL = 'final_answer';

function checkRetries(value: unknown): number {
  if (value === undefined) return 2;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    throw new AgentConfigError(
      `Invalid option maxOutputRetries: received ${JSON.stringify(value) ?? typeof value}; expected an integer >= 0 (default 2).`,
    );
  }
  return value;
}

/**
 * The run config a run with `output` really uses, and how its answer is checked: in native
 * mode the provider's JSON-schema response format (rewritten to OpenAI's strict subset for
 * OpenAI, objects closed for Anthropic); in tool mode one more tool, `final_answer`. Without
 * `output`, the config as it is and no spec.
 *
 * @example
 * const { config, outputSpec } = withStructuredOutput({ model, prompt, output: z.object({ city: z.string() }) });
 */
export function withStructuredOutput(config: RunAgentConfig): {
  config: RunAgentConfig;
  outputSpec?: OutputSpec;
} {
  if (config.output === undefined) return { config };
  if (config.responseFormat !== undefined) {
    throw new AgentConfigError(
      'output and responseFormat were both given: output sets the response format itself, so remove responseFormat.',
    );
  }
  const mode = config.outputMode ?? 'auto';
  if (!['auto', 'native', 'tool'].includes(mode)) {
    throw new AgentConfigError(
      `Invalid option outputMode: received ${String(mode)}; expected 'auto', 'native' or 'tool'.`,
    );
  }
  const output = resolveOutput(config.output);
  const maxRetries = checkRetries(config.maxOutputRetries);
  const resolvedMode = resolveOutputMode(config.model, mode);
  let prepared: RunAgentConfig;
  let strictFrom: JSONSchema | undefined;
  if (resolvedMode === 'native') {
    const openai = config.model.provider === 'openai';
    const responseFormat: ResponseFormat = {
      type: 'json-schema',
      name: FINAL_TOOL,
      schema: openai ? toStrictJsonSchema(output.wireSchema) : closeObjects(output.wireSchema),
    };
    if (openai) {
      responseFormat.strict = true;
      strictFrom = output.wireSchema;
    }
    prepared = { ...config, responseFormat };
  } else {
    if (config.tools?.some((t) => t?.name === FINAL_TOOL)) {
      throw new AgentConfigError(
        `A tool is named "${FINAL_TOOL}", the name the run's output tool takes: rename it, or use outputMode: 'native'.`,
      );
    }
    prepared = { ...config, tools: [...(config.tools ?? []), finalAnswerTool(output, FINAL_TOOL)] };
  }
  const spec: OutputSpec = { output, mode: resolvedMode, toolName: FINAL_TOOL, maxRetries };
  return { config: prepared, outputSpec: strictFrom ? { ...spec, strictFrom } : spec };
}

/**
 * The pipeline with the run's structured-output stage at its end (for the spec made by
 * `withStructuredOutput`); the pipeline as it is otherwise.
 *
 * @example
 * const pipeline = withOutputStage(outputSpec, resolvePipeline(config));
 */
export function withOutputStage(spec: OutputSpec | undefined, pipeline: Pipeline): Pipeline {
  if (!spec) return pipeline;
  const stage: LoopOperator = structuredOutput(spec);
  return (turn$) => stage(pipeline(turn$));
}
