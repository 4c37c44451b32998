import { z } from 'zod';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { JSONSchema } from '../model/chat-model.js';
import {
  isJsonSchemaParameters,
  jsonSchema,
  type JsonSchemaParameters,
  type ToolParameters,
} from '../tools/tool.js';
import { toolParametersJsonSchema } from '../tools/validate-args.js';

/**
 * The shape of a run's final answer: a zod schema, a `jsonSchema<T>()` wrapper, or a plain
 * JSON Schema object (checked with ajv, typed `unknown`).
 *
 * @example
 * const output: OutputSchema<{ city: string }> = z.object({ city: z.string() });
 */
export type OutputSchema<T = unknown> = z.ZodType<T> | JsonSchemaParameters<T> | JSONSchema;

/**
 * The type of the final answer an `OutputSchema` describes (`z.infer` for zod schemas).
 *
 * @example
 * const schema = z.object({ city: z.string(), tempC: z.number() });
 * type Weather = InferOutput<typeof schema>; // { city: string; tempC: number }
 */
export type InferOutput<S> =
  S extends z.ZodType<infer O> ? O : S extends JsonSchemaParameters<infer T> ? T : unknown;

/** An output schema made ready for a run: how to validate it and what the model is shown. */
export interface ResolvedOutput {
  /** Validates the answer (as the model sends it, `{ answer }` when wrapped). */
  readonly parameters: ToolParameters;
  /** What the model is asked for (an object: providers want one at the root). */
  readonly wireSchema: JSONSchema;
  /** The schema is not an object: the model answers `{ "answer": … }`, unwrapped afterwards. */
  readonly wrapped: boolean;
}

function isZod(value: unknown): value is z.ZodType {
  return typeof (value as { safeParse?: unknown } | null)?.safeParse === 'function';
}

const resolved = new WeakMap<object, ResolvedOutput>();

/**
 * Validation and wire form of an output schema (once per schema object). A schema whose root
 * is not an object is wrapped as `{ answer }`, since providers want an object at the root.
 *
 * @example
 * const { wireSchema } = resolveOutput(z.object({ city: z.string() }));
 */
export function resolveOutput(output: OutputSchema): ResolvedOutput {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) {
    throw new AgentConfigError(
      'output must be a zod schema, jsonSchema({...}) or a JSON Schema object, e.g. output: z.object({ answer: z.string() }).',
    );
  }
  const known = resolved.get(output);
  if (known) return known;
  const parameters: ToolParameters =
    isZod(output) || isJsonSchemaParameters(output) ? output : jsonSchema(output);
  const schema = toolParametersJsonSchema(parameters);
  const isObject = schema.type === 'object';
  let result: ResolvedOutput;
  if (isObject) {
    result = { parameters, wireSchema: schema, wrapped: false };
  } else {
    const wireSchema: JSONSchema = {
      type: 'object',
      properties: { answer: schema },
      required: ['answer'],
      additionalProperties: false,
    };
    result = { parameters: wrappedParameters(parameters, wireSchema), wireSchema, wrapped: true };
  }
  resolved.set(output, result);
  return result;
}

/** The wrapped schema's validator: zod keeps its own parsing (transforms, defaults), ajv the JSON Schema. */
function wrappedParameters(parameters: ToolParameters, wireSchema: JSONSchema): ToolParameters {
  return isZod(parameters) ? z.object({ answer: parameters }) : jsonSchema(wireSchema);
}
