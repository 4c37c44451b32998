import type { JSONSchema } from '../model/chat-model.js';

type Schema = Record<string, unknown>;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** `schema` also accepting `null` (for an optional property made required). */
function nullable(schema: Schema): Schema {
  const type = schema.type;
  const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : undefined;
  if (typeof type === 'string' && type !== 'null') {
    const out: Schema = { ...schema, type: [type, 'null'] };
    if (values && !values.includes(null)) out.enum = [...values, null];
    return out;
  }
  if (Array.isArray(type)) {
    if (type.includes('null')) return schema;
    const out: Schema = { ...schema, type: [...(type as unknown[]), 'null'] };
    if (values && !values.includes(null)) out.enum = [...values, null];
    return out;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function strictNode(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictNode);
  if (!isSchema(node)) return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node)) {
    // Keywords strict mode refuses or that mean nothing to it.
    if (key === '$schema' || key === 'default') continue;
    if (key === 'oneOf') out.anyOf = strictNode(value);
    else if (key === 'properties' && isSchema(value)) {
      const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
      const props: Schema = {};
      for (const [name, prop] of Object.entries(value)) {
        const strict = strictNode(prop) as Schema;
        props[name] = required.has(name) ? strict : nullable(strict);
      }
      out.properties = props;
    } else if (['items', 'anyOf', 'allOf', '$defs', 'definitions', 'prefixItems'].includes(key)) {
      out[key] =
        isSchema(value) && (key === '$defs' || key === 'definitions')
          ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, strictNode(v)]))
          : strictNode(value);
    } else out[key] = value;
  }
  // A record (`additionalProperties` given as a schema, no properties) is left as it is.
  const isRecord = isSchema(node.additionalProperties) && !isSchema(node.properties);
  if ((node.type === 'object' || isSchema(node.properties)) && !isRecord) {
    out.required = Object.keys(isSchema(out.properties) ? out.properties : {});
    out.additionalProperties = false;
    if (!out.properties) out.properties = {};
  }
  return out;
}

/**
 * A JSON Schema rewritten to OpenAI's strict structured-output subset: every object lists all
 * its properties as required and forbids others, and a property that was optional accepts
 * `null` instead (`dropAddedNulls` takes those nulls out of the answer again). `oneOf`
 * becomes `anyOf`; `default` and `$schema` are left out.
 *
 * @example
 * toStrictJsonSchema({ type: 'object', properties: { a: { type: 'string' } } });
 * // { type: 'object', properties: { a: { type: ['string', 'null'] } }, required: ['a'], additionalProperties: false }
 */
export function toStrictJsonSchema(schema: JSONSchema): JSONSchema {
  return strictNode(schema) as JSONSchema;
}

function acceptsNull(schema: unknown): boolean {
  if (!isSchema(schema)) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  if (Array.isArray(schema.anyOf)) return schema.anyOf.some(acceptsNull);
  if (Array.isArray(schema.oneOf)) return schema.oneOf.some(acceptsNull);
  // No type given: anything goes, null included.
  return type === undefined && schema.const === undefined && schema.$ref === undefined;
}

/**
 * An answer given under `toStrictJsonSchema(original)` brought back to `original`: the
 * `null`s sent for optional properties that do not accept `null` are removed, at any depth.
 *
 * @example
 * dropAddedNulls({ a: null, b: 1 }, { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } }, required: ['b'] });
 * // { b: 1 }
 */
export function dropAddedNulls(value: unknown, original: JSONSchema): unknown {
  if (!isSchema(original)) return value;
  if (Array.isArray(value)) {
    const items = original.items;
    return isSchema(items) ? value.map((v) => dropAddedNulls(v, items)) : value;
  }
  if (!isSchema(value) || !isSchema(original.properties)) return value;
  const required = new Set(Array.isArray(original.required) ? (original.required as string[]) : []);
  const out: Schema = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === '__proto__') continue; // never a prototype (see withoutProtoKeys)
    const prop = original.properties[key];
    if (v === null && !required.has(key) && !acceptsNull(prop)) continue;
    out[key] = isSchema(prop) ? dropAddedNulls(v, prop) : v;
  }
  return out;
}

/**
 * A JSON Schema with every object closed (`additionalProperties: false` where it was not
 * set), as Anthropic's structured outputs require; required lists are kept as they are.
 *
 * @example
 * closeObjects({ type: 'object', properties: {} }); // { type: 'object', properties: {}, additionalProperties: false }
 */
export function closeObjects(schema: JSONSchema): JSONSchema {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (!isSchema(node)) return node;
    const out: Schema = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === '$schema') continue;
      out[key] =
        key === 'properties' || key === '$defs' || key === 'definitions'
          ? isSchema(value)
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]))
            : value
          : ['items', 'anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key)
            ? walk(value)
            : value;
    }
    if ((node.type === 'object' || isSchema(node.properties)) && out.additionalProperties === undefined) {
      out.additionalProperties = false;
    }
    return out;
  };
  return walk(schema) as JSONSchema;
}
