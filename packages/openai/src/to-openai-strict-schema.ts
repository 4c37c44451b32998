import { RxAgentError, type JSONSchema } from '@rxagent/core';

/**
 * A JSON Schema that OpenAI's strict mode cannot express. The message names the place in the
 * schema and what to change (or to turn `strict` off for that tool).
 *
 * @example
 * try { toOpenAIStrictSchema(schema, 'search'); } catch (e) { if (e instanceof StrictSchemaError) console.log(e.path); }
 */
export class StrictSchemaError extends RxAgentError {
  constructor(
    message: string,
    /** Where in the schema, as a JSON pointer (`#/properties/filter`). */
    readonly path: string,
  ) {
    super(message);
    this.name = 'StrictSchemaError';
  }
}

// Keywords strict mode rejects (https://platform.openai.com/docs/guides/structured-outputs, "Supported schemas").
const UNSUPPORTED = [
  'patternProperties',
  'unevaluatedProperties',
  'propertyNames',
  'if',
  'then',
  'else',
  'not',
  'dependentRequired',
  'dependentSchemas',
];

/**
 * Rewrites a JSON Schema to OpenAI's strict subset: every object lists all its properties in
 * `required` and has `additionalProperties: false`; a property that was optional becomes
 * nullable (`type: [T, 'null']`, or `anyOf [..., { type: 'null' }]`) so the model can still
 * leave it out by sending null. The input is not changed. Constructs strict mode cannot
 * express (open objects, `patternProperties`, `not`, `if`/`then`…) throw `StrictSchemaError`.
 *
 * @example
 * toOpenAIStrictSchema({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'number' } }, required: ['q'] }, 'search');
 * // { type: 'object', properties: { q: { type: 'string' }, n: { type: ['number', 'null'] } }, required: ['q', 'n'], additionalProperties: false }
 */
export function toOpenAIStrictSchema(schema: JSONSchema, toolName: string): JSONSchema {
  return rewrite(schema, '#', toolName) as JSONSchema;
}

function rewrite(node: unknown, path: string, toolName: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => rewrite(item, `${path}/${i}`, toolName));
  if (typeof node !== 'object' || node === null) return node;
  const schema = node as Record<string, unknown>;
  for (const keyword of UNSUPPORTED) {
    if (keyword in schema) {
      throw new StrictSchemaError(
        `Tool "${toolName}": OpenAI strict mode does not support "${keyword}" (at ${path}). ` +
          'Simplify the schema, or set strict: false on the tool.',
        `${path}/${keyword}`,
      );
    }
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === 'properties' ? value : rewrite(value, `${path}/${key}`, toolName);
  }
  if (!isObjectSchema(schema)) return out;
  if (schema.additionalProperties !== undefined && schema.additionalProperties !== false) {
    throw new StrictSchemaError(
      `Tool "${toolName}": OpenAI strict mode needs closed objects, and the object at ${path} allows additional properties. ` +
        'List its properties, or set strict: false on the tool.',
      `${path}/additionalProperties`,
    );
  }
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const rewritten: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(properties)) {
    const strict = rewrite(property, `${path}/properties/${name}`, toolName);
    rewritten[name] = required.has(name) ? strict : nullable(strict);
  }
  out.properties = rewritten;
  out.required = Object.keys(rewritten);
  out.additionalProperties = false;
  return out;
}

function isObjectSchema(schema: Record<string, unknown>): boolean {
  return schema.type === 'object' || (schema.type === undefined && typeof schema.properties === 'object');
}

function withNullEnum(s: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(s.enum) && !s.enum.includes(null)
    ? { ...s, enum: [...(s.enum as unknown[]), null] }
    : s;
}

function nullable(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema;
  const s = withNullEnum(schema as Record<string, unknown>);
  if (typeof s.type === 'string') return s.type === 'null' ? s : { ...s, type: [s.type, 'null'] };
  if (Array.isArray(s.type))
    return s.type.includes('null') ? s : { ...s, type: [...(s.type as unknown[]), 'null'] };
  if (Array.isArray(s.anyOf)) return { ...s, anyOf: [...(s.anyOf as unknown[]), { type: 'null' }] };
  return { anyOf: [s, { type: 'null' }] };
}
