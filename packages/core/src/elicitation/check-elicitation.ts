import { clip } from '../util/clip.js';
import { describeValue } from '../util/describe-value.js';
import type {
  ElicitationField,
  ElicitationResponse,
  ElicitationSchema,
  ElicitationValues,
} from './elicitation-types.js';

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const FIELD_TYPES = ['string', 'number', 'integer', 'boolean', 'array'];
// Linear-time shapes only (no backtracking): these run on what a person or a tool typed.
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})?$/;

/** The values a choice field accepts (`enum`, `oneOf` / `anyOf` consts), or undefined. */
function choices(field: { enum?: unknown; oneOf?: unknown; anyOf?: unknown }): unknown[] | undefined {
  if (Array.isArray(field.enum)) return field.enum as unknown[];
  const list = Array.isArray(field.oneOf)
    ? field.oneOf
    : Array.isArray(field.anyOf)
      ? field.anyOf
      : undefined;
  return list?.map((option: unknown) => (isRecord(option) ? option.const : undefined));
}

/**
 * Why a form is not the flat, primitive subset elicitation allows, or undefined when it is.
 * A form that is not is declined without asking anyone.
 *
 * @example
 * elicitationSchemaProblem({ type: 'object', properties: { a: { type: 'object' } } });
 * // 'field "a" has type "object"; a form field is a string, number, integer, boolean or array of choices'
 */
export function elicitationSchemaProblem(schema: unknown): string | undefined {
  if (!isRecord(schema) || schema.type !== 'object' || !isRecord(schema.properties))
    return 'the form must be { type: "object", properties: { … } }';
  for (const [name, field] of Object.entries(schema.properties)) {
    const label = `field "${clip(name, 64)}"`;
    if (!isRecord(field) || !FIELD_TYPES.includes(field.type as string))
      return `${label} has type ${describeValue(isRecord(field) ? field.type : field, 40)}; a form field is a string, number, integer, boolean or array of choices`;
    if (field.type === 'array') {
      const items = isRecord(field.items) ? choices(field.items) : undefined;
      if (!items || items.some((v) => typeof v !== 'string'))
        return `${label} is a list without string choices (items.enum or items.anyOf)`;
    }
    const options = choices(field);
    if (options && options.some((v) => typeof v !== 'string'))
      return `${label} has choices that are not strings`;
  }
  const required = schema.required;
  if (required !== undefined && (!Array.isArray(required) || required.some((r) => typeof r !== 'string')))
    return '"required" must be an array of field names';
  return undefined;
}

function checkString(
  field: Extract<ElicitationField, { type: 'string' }>,
  value: unknown,
): string | undefined {
  if (typeof value !== 'string') return `expected a string, received ${describeValue(value, 60)}`;
  if (field.minLength !== undefined && value.length < field.minLength)
    return `expected at least ${field.minLength} characters`;
  if (field.maxLength !== undefined && value.length > field.maxLength)
    return `expected at most ${field.maxLength} characters`;
  const options = choices(field);
  if (options && !options.includes(value)) return `expected one of ${clip(JSON.stringify(options), 200)}`;
  if (field.format === 'email' && !EMAIL.test(value)) return 'expected an email address';
  if (field.format === 'date' && !DATE.test(value)) return 'expected a date (YYYY-MM-DD)';
  if (field.format === 'date-time' && !DATE_TIME.test(value)) return 'expected a date and time (ISO 8601)';
  if (field.format === 'uri' && !URL.canParse(value)) return 'expected an absolute URI';
  return undefined;
}

function checkValue(field: ElicitationField, value: unknown): string | undefined {
  switch (field.type) {
    case 'string':
      return checkString(field, value);
    case 'number':
    case 'integer':
      if (typeof value !== 'number' || !Number.isFinite(value))
        return `expected a number, received ${describeValue(value, 60)}`;
      if (field.type === 'integer' && !Number.isInteger(value)) return 'expected an integer';
      if (field.minimum !== undefined && value < field.minimum) return `expected at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `expected at most ${field.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean'
        ? undefined
        : `expected true or false, received ${describeValue(value, 60)}`;
    case 'array': {
      const options = choices(field.items) ?? [];
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string' || !options.includes(v)))
        return `expected a list of ${clip(JSON.stringify(options), 200)}`;
      if (new Set(value).size !== value.length) return 'expected each choice at most once';
      if (field.minItems !== undefined && value.length < field.minItems)
        return `expected at least ${field.minItems} choices`;
      if (field.maxItems !== undefined && value.length > field.maxItems)
        return `expected at most ${field.maxItems} choices`;
      return undefined;
    }
  }
}

/**
 * Reads an answer to a form, failing closed: `decline` and `cancel` pass; `accept` needs values
 * that fit the form — every field left out gets the form's default, a required field without
 * one, a value of the wrong type or out of bounds, or a field the form does not have make the
 * answer a `decline` whose reason lists each issue. Anything else declines with a reason too.
 *
 * @param schema The form (checked with `elicitationSchemaProblem` first).
 * @param answer What the person or the elicitor answered.
 * @return The response to send back.
 *
 * @example
 * checkElicitationAnswer(schema, { action: 'accept', content: {} });
 * // { action: 'accept', content: { name: 'John Doe', age: 30 } } when those are the defaults
 */
export function checkElicitationAnswer(schema: ElicitationSchema, answer: unknown): ElicitationResponse {
  const action = isRecord(answer) ? answer.action : undefined;
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept')
    return {
      action: 'decline',
      reason: `The answer was ${describeValue(answer, 120)}; expected { action: 'accept', content } or { action: 'decline' | 'cancel' }.`,
    };
  const given = (answer as { content?: unknown }).content ?? {};
  if (!isRecord(given))
    return { action: 'decline', reason: `The values were ${describeValue(given, 120)}; expected an object.` };
  const issues: string[] = [];
  const content: ElicitationValues = {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(schema.properties, name)) issues.push(`"${clip(name, 64)}": not a field of the form`);
  }
  const required = new Set(schema.required ?? []);
  for (const [name, field] of Object.entries(schema.properties)) {
    const value = Object.hasOwn(given, name) ? given[name] : field.default;
    if (value === undefined) {
      if (required.has(name)) issues.push(`"${name}": required`);
      continue;
    }
    const issue = checkValue(field, value);
    if (issue) issues.push(`"${name}": ${issue}`);
    // Defined as a plain data property: a field named "__proto__" never sets a prototype.
    else
      Object.defineProperty(content, name, { value, enumerable: true, writable: true, configurable: true });
  }
  if (issues.length > 0)
    return { action: 'decline', reason: `The values do not fit the form: ${clip(issues.join('; '), 1000)}.` };
  return { action: 'accept', content };
}
