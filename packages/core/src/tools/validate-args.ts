import type { ErrorObject } from 'ajv';
import { z } from 'zod';
import type { ToolCallPart } from '../messages/types.js';
import type { JSONSchema, ToolSpec } from '../model/chat-model.js';
import { clip } from '../util/clip.js';
import { withoutProtoKeys } from '../util/without-proto-keys.js';
import { compileJsonSchema } from './json-schema-validator.js';
import { isJsonSchemaParameters, type AnyTool, type ToolParameters } from './tool.js';

/**
 * One argument problem: where (`path`, '' for the root) and what.
 *
 * @example
 * const issue: ArgumentIssue = { path: 'options.depth', message: 'Invalid input: expected number, received string' };
 */
export interface ArgumentIssue {
  path: string;
  message: string;
}

/** The outcome of validating a call's arguments. */
export type ArgsValidation = { ok: true; args: unknown } | { ok: false; error: string };

const jsonSchemas = new WeakMap<object, JSONSchema>();

function ajvIssues(errors: ErrorObject[] | null | undefined): ArgumentIssue[] {
  return (errors ?? []).map((e) => {
    let path = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (e.keyword === 'required') {
      const missing = (e.params as { missingProperty?: string }).missingProperty ?? '';
      path = path ? `${path}.${missing}` : missing;
      return { path, message: 'required property is missing' };
    }
    if (e.keyword === 'additionalProperties') {
      const extra = (e.params as { additionalProperty?: string }).additionalProperty ?? '';
      return { path: path ? `${path}.${extra}` : extra, message: 'additional property is not allowed' };
    }
    return { path, message: e.message ?? e.keyword };
  });
}

/**
 * Validates arguments against a zod schema or a JSON Schema (ajv). Returns the parsed
 * arguments (zod output) or every issue with its path.
 *
 * @example
 * const r = validateWithSchema(z.object({ city: z.string() }), { city: 3 });
 * // { ok: false, issues: [{ path: 'city', message: 'Invalid input: expected string, received number' }] }
 */
export function validateWithSchema(
  parameters: ToolParameters,
  args: unknown,
): { ok: true; value: unknown } | { ok: false; issues: ArgumentIssue[] } {
  if (isJsonSchemaParameters(parameters)) {
    // Compiled once per schema (at jsonSchema() or tool() time for tools made with them).
    const validate = compileJsonSchema(parameters.schema);
    return validate(args) ? { ok: true, value: args } : { ok: false, issues: ajvIssues(validate.errors) };
  }
  const result = parameters.safeParse(args);
  if (result.success) return { ok: true, value: result.data };
  return {
    ok: false,
    issues: result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
  };
}

function formatReceived(args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args, null, 2) ?? `[${typeof args}]`;
  } catch (error) {
    // Too deep (or cyclic) to print: String() would recurse the same way, so say what it is.
    json = `[${Array.isArray(args) ? 'array' : typeof args} that cannot be printed: ${error instanceof Error ? error.message : 'unknown error'}]`;
  }
  return clip(json, 2000);
}

const MAX_ISSUES = 50;

/**
 * Checks a model's tool call before it runs: malformed JSON and schema mismatches give the
 * error text the model reads (every issue with its path, and the arguments received).
 *
 * @example
 * const v = validateToolCall(weather, call);
 * if (!v.ok) return toolErrorResult(call, v.error, now);
 */
export function validateToolCall(tool: AnyTool, call: ToolCallPart): ArgsValidation {
  if (call.argsError !== undefined) {
    return {
      ok: false,
      error:
        `Invalid JSON arguments for tool "${clip(call.name, 100)}": ${clip(call.argsError, 500)}.\n` +
        `Raw arguments: ${clip(call.argsText ?? '', 2000)}\nSend the arguments as one valid JSON object.`,
    };
  }
  // A free-form tool (string parameters) takes the model's text as is, the empty text too.
  const freeForm = toolParametersJsonSchema(tool.parameters).type === 'string';
  const args =
    !freeForm && (call.args === undefined || call.args === null || call.args === '')
      ? {}
      : withoutProtoKeys(call.args);
  const result = validateWithSchema(tool.parameters, args);
  if (result.ok) return { ok: true, args: result.value };
  const lines = result.issues
    .slice(0, MAX_ISSUES)
    .map((i) => `  - ${clip(i.path || '(root)', 200)}: ${clip(i.message, 300)}`);
  if (result.issues.length > MAX_ISSUES)
    lines.push(`  - … and ${result.issues.length - MAX_ISSUES} more issues`);
  return {
    ok: false,
    error:
      `Invalid arguments for tool "${clip(call.name, 100)}":\n${lines.join('\n')}\n\n` +
      `Received arguments:\n${formatReceived(args)}`,
  };
}

/**
 * The JSON Schema of a tool's parameters, as providers receive it.
 *
 * @example
 * toolParametersJsonSchema(z.object({ city: z.string() }));
 * // { type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false }
 */
export function toolParametersJsonSchema(parameters: ToolParameters): JSONSchema {
  if (isJsonSchemaParameters(parameters)) return parameters.schema;
  let schema = jsonSchemas.get(parameters);
  if (!schema) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(parameters, {
      io: 'input',
      unrepresentable: 'any',
    }) as JSONSchema;
    schema = rest;
    jsonSchemas.set(parameters, schema);
  }
  return schema;
}

/**
 * The `ToolSpec` a provider receives for a tool.
 *
 * @example
 * const specs = tools.map(toToolSpec);
 */
export function toToolSpec(tool: AnyTool): ToolSpec {
  const spec: ToolSpec = {
    name: tool.name,
    description: tool.description,
    parameters: toolParametersJsonSchema(tool.parameters),
  };
  if (tool.strict !== undefined) spec.strict = tool.strict;
  if (tool.providerTools !== undefined) spec.providerTools = tool.providerTools;
  return spec;
}
