import { Ajv, type ValidateFunction } from 'ajv';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { JSONSchema } from '../model/chat-model.js';
import { describeValue } from '../util/describe-value.js';
import { linearRegExp } from './linear-regexp.js';

// Options of every validator: all errors, unknown keywords tolerated, patterns run by RE2.
// Formats are not checked (no format vocabulary is loaded): say so to ajv, which otherwise warns on stderr for each one.
const OPTIONS = {
  allErrors: true,
  strict: false,
  validateFormats: false,
  code: { regExp: linearRegExp },
} as const;
// Checks schemas against their meta-schema (compiled once, here); it never keeps a user schema.
const checker = new Ajv(OPTIONS);
const compiled = new WeakMap<object, ValidateFunction>();

function fail(owner: string, problem: string): AgentConfigError {
  return new AgentConfigError(
    `Invalid JSON Schema ${owner}: ${problem.replace(/[.\s]+$/, '')}. Fix the schema: it must be a valid JSON Schema (draft-07) object.`,
  );
}

/**
 * Compiles a JSON Schema into an ajv validator, once per schema object. Each schema gets its
 * own ajv instance, so schemas carrying `$id` never collide, however many times a tool is
 * made. Patterns run in linear time (`linearRegExp`). An invalid schema (bad keyword value,
 * unresolvable `$ref`, bad regex, a pattern that needs backtracking…) throws an
 * `AgentConfigError` saying what is wrong; `owner` says whose schema it is.
 *
 * @example
 * const validate = compileJsonSchema({ $id: 'urn:search', type: 'object' }, 'for tool "search"');
 * validate({}); // true
 */
export function compileJsonSchema(schema: JSONSchema, owner = 'given to jsonSchema()'): ValidateFunction {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw fail(owner, `expected a JSON Schema object, received ${describeValue(schema)}`);
  }
  const cached = compiled.get(schema);
  if (cached) return cached;
  let validate: ValidateFunction;
  try {
    if (checker.validateSchema(schema) !== true) {
      throw new Error(checker.errorsText(checker.errors, { dataVar: 'schema' }));
    }
    // Checked above; its own instance registers its `$id`s where no other schema can meet them.
    validate = new Ajv({ ...OPTIONS, validateSchema: false }).compile(schema);
  } catch (error) {
    throw fail(owner, error instanceof Error ? error.message : String(error));
  }
  compiled.set(schema, validate);
  return validate;
}
