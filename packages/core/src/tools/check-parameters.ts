import { AgentConfigError } from '../errors/agent-errors.js';
import { describeValue } from '../util/describe-value.js';
import { compileJsonSchema } from './json-schema-validator.js';
import type { JsonSchemaParameters } from './tool.js';

const ZOD_4 =
  'use zod 4 (`import { z } from "zod"` with zod ^4, or `import { z } from "zod/v4"` with zod 3.25)';

function isJsonSchemaWrapper(value: object): value is JsonSchemaParameters {
  return (value as { kind?: unknown }).kind === 'json-schema';
}

/**
 * Checks a tool's `parameters` when the tool is made: a zod 4 schema, or a `jsonSchema()`
 * wrapper whose schema ajv compiles. A zod 3 schema, a bare JSON Schema or anything else is
 * an `AgentConfigError` saying what to pass instead.
 *
 * @example
 * checkToolParameters(z.object({ city: z.string() }), 'get_weather'); // ok
 * checkToolParameters({ type: 'object' }, 'get_weather'); // throws: wrap it with jsonSchema({...})
 */
export function checkToolParameters(parameters: unknown, toolName: string): void {
  const where = `for tool "${toolName}"`;
  if (typeof parameters !== 'object' || parameters === null) {
    throw new AgentConfigError(
      `Tool "${toolName}" needs "parameters": a zod schema such as z.object({...}), or jsonSchema({...}); ` +
        `received ${describeValue(parameters)}.`,
    );
  }
  if (isJsonSchemaWrapper(parameters)) {
    compileJsonSchema(parameters.schema, where);
    return;
  }
  const p = parameters as { _zod?: unknown; _def?: unknown; safeParse?: unknown };
  if (typeof p.safeParse === 'function' && typeof p._zod === 'object' && p._zod !== null) return;
  if (typeof p.safeParse === 'function' && p._def !== undefined) {
    throw new AgentConfigError(
      `The parameters ${where} are a zod 3 schema, and rxagent needs zod 4: ${ZOD_4}.`,
    );
  }
  throw new AgentConfigError(
    `The parameters ${where} are neither a zod 4 schema nor jsonSchema({...}): received ${describeValue(parameters)}. ` +
      'Wrap a plain JSON Schema with jsonSchema({...}), or ' +
      ZOD_4 +
      '.',
  );
}
