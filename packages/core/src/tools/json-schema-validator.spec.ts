import { AgentConfigError } from '../errors/agent-errors.js';
import type { ToolCallPart } from '../messages/types.js';
import type { JSONSchema } from '../model/chat-model.js';
import { jsonSchema, tool, type JsonSchemaParameters } from './tool.js';
import { validateToolCall, validateWithSchema } from './validate-args.js';

function errorOf(fn: () => unknown): Error | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

const call = (args: unknown): ToolCallPart => ({ type: 'tool-call', id: 'c1', name: 'lookup', args });
const makeTool = (parameters: JsonSchemaParameters) =>
  tool({ name: 'lookup', description: 'Look up', parameters, execute: () => 'ok' });

describe('jsonSchema(): the schema is compiled when it is given', () => {
  it.each<[string, JSONSchema, string]>([
    ['an unknown type', { type: 'objekt' }, 'schema/type must be equal to one of the allowed values'],
    [
      'a keyword of the wrong type',
      { type: 'object', properties: { id: { type: 'integer', minimum: 'one' } } },
      'schema/properties/id/minimum must be number',
    ],
    [
      'an unresolvable $ref',
      { type: 'object', properties: { a: { $ref: '#/definitions/nope' } } },
      "can't resolve reference #/definitions/nope",
    ],
    ['a bad regular expression', { type: 'string', pattern: '(' }, 'Invalid regular expression'],
  ])('refuses %s with an AgentConfigError saying what is wrong', (_what, schema, problem) => {
    const error = errorOf(() => jsonSchema(schema));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toMatch(/^Invalid JSON Schema given to jsonSchema\(\): /);
    expect(error?.message).toContain(problem);
    expect(error?.message).toContain('Fix the schema');
  });

  it('refuses a schema that is not an object', () => {
    expect(errorOf(() => jsonSchema(null as never))?.message).toBe(
      'Invalid JSON Schema given to jsonSchema(): expected a JSON Schema object, received null. ' +
        'Fix the schema: it must be a valid JSON Schema (draft-07) object.',
    );
    expect(AgentConfigError.isInstance(errorOf(() => jsonSchema([] as never)))).toBe(true);
  });

  it('refuses at tool() time a hand-made wrapper with an invalid schema, naming the tool', () => {
    const error = errorOf(() => makeTool({ kind: 'json-schema', schema: { type: 'objekt' } }));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toMatch(/^Invalid JSON Schema for tool "lookup": schema\/type must be equal/);
  });

  it('reports an invalid schema of a tool made without tool() as an AgentConfigError', () => {
    const parameters = { kind: 'json-schema', schema: { type: 'objekt' } } as const;
    expect(AgentConfigError.isInstance(errorOf(() => validateWithSchema(parameters, {})))).toBe(true);
  });
});

describe('jsonSchema(): schemas with $id', () => {
  const schemaWithId = (): JSONSchema => ({
    $id: 'https://example.com/lookup.json',
    type: 'object',
    properties: { id: { type: 'integer' } },
    required: ['id'],
  });

  it('makes the same tool (a fresh schema each time) many times, e.g. once per run', () => {
    for (let run = 0; run < 50; run++) {
      const lookup = makeTool(jsonSchema(schemaWithId()));
      expect(validateToolCall(lookup, call({ id: run }))).toEqual({ ok: true, args: { id: run } });
      expect(validateToolCall(lookup, call({ id: 'x' })).ok).toBe(false);
    }
  });

  it('keeps two different schemas with the same $id apart', () => {
    const byId = makeTool(jsonSchema(schemaWithId()));
    const byName = makeTool(
      jsonSchema({
        $id: 'https://example.com/lookup.json',
        type: 'object',
        properties: { name: { type: 'string' } },
        required: ['name'],
      }),
    );
    expect(validateToolCall(byId, call({ id: 1 })).ok).toBe(true);
    expect(validateToolCall(byId, call({ name: 'a' })).ok).toBe(false);
    expect(validateToolCall(byName, call({ name: 'a' })).ok).toBe(true);
    expect(validateToolCall(byName, call({ id: 1 })).ok).toBe(false);
  });

  it('resolves references to the schema itself and to nested $ids within each schema', () => {
    const tree = (leaf: string): JSONSchema => ({
      $id: 'https://example.com/tree.json',
      type: 'object',
      properties: {
        value: { $ref: 'https://example.com/leaf.json' },
        children: { type: 'array', items: { $ref: 'https://example.com/tree.json' } },
      },
      definitions: { leaf: { $id: 'https://example.com/leaf.json', type: leaf } },
    });
    const numbers = makeTool(jsonSchema(tree('number')));
    const strings = makeTool(jsonSchema(tree('string')));
    expect(validateToolCall(numbers, call({ value: 1, children: [{ value: 2 }] })).ok).toBe(true);
    expect(validateToolCall(numbers, call({ value: 1, children: [{ value: 'two' }] })).ok).toBe(false);
    expect(validateToolCall(strings, call({ value: 'a', children: [{ value: 'b' }] })).ok).toBe(true);
    expect(validateToolCall(strings, call({ value: 'a', children: [{ value: 2 }] })).ok).toBe(false);
  });

  it('keeps the error texts the model reads', () => {
    const lookup = makeTool(
      jsonSchema({
        $id: 'urn:example:lookup',
        type: 'object',
        properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['id', 'tags'],
        additionalProperties: false,
      }),
    );
    expect(validateToolCall(lookup, call({ tags: ['a', 2], extra: true }))).toEqual({
      ok: false,
      error:
        'Invalid arguments for tool "lookup":\n' +
        '  - id: required property is missing\n' +
        '  - extra: additional property is not allowed\n' +
        '  - tags.1: must be string\n\n' +
        'Received arguments:\n{\n  "tags": [\n    "a",\n    2\n  ],\n  "extra": true\n}',
    });
  });
});

describe('jsonSchema(): patterns run in linear time', () => {
  // A pattern with nested quantifiers: a backtracking engine takes exponential time on an
  // input that almost matches (here about 2 s for 28 characters; each more one doubles it),
  // blocking the event loop so that no tool timeout can fire. MCP servers write such schemas.
  const evil = '^([a-zA-Z0-9]+\\s?)*$';
  const schema = (pattern: string): JSONSchema => ({
    type: 'object',
    properties: { name: { type: 'string', pattern } },
    required: ['name'],
  });

  it('checks a pattern against a hostile argument in linear time', () => {
    const lookup = makeTool(jsonSchema(schema(evil)));
    const started = performance.now();
    const short = validateToolCall(lookup, call({ name: `${'a'.repeat(27)}?` }));
    // Linear: well under a millisecond. The bound is loose for a busy machine.
    expect(performance.now() - started).toBeLessThan(1000);
    const long = validateToolCall(lookup, call({ name: `${'a'.repeat(100_000)}?` }));
    for (const result of [short, long]) {
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error).toContain(`must match pattern "${evil}"`);
    }
    expect(validateToolCall(lookup, call({ name: 'abc def 42' }))).toEqual({
      ok: true,
      args: { name: 'abc def 42' },
    });
  });

  it('keeps JSON Schema pattern semantics: unanchored, unicode, classes and escapes', () => {
    const cases: [string, string, boolean][] = [
      ['b', 'abc', true],
      ['^\\d{3}-\\d{4}$', '555-1234', true],
      ['^\\d{3}-\\d{4}$', '555-12345', false],
      ['^[\\w.]+@[\\w.]+$', 'ada@example.org', true],
      ['^\\p{L}+$', 'Ünïcödé', true],
      ['^a/b$', 'a/b', true],
      ['^(?<year>\\d{4})$', '2026', true],
    ];
    for (const [pattern, value, ok] of cases) {
      const lookup = makeTool(jsonSchema(schema(pattern)));
      expect([pattern, value, validateToolCall(lookup, call({ name: value })).ok]).toEqual([
        pattern,
        value,
        ok,
      ]);
    }
  });

  it('refuses at definition a pattern no linear-time engine can run, saying what to change', () => {
    for (const pattern of ['^(a+)\\1$', '^(?=a)a$', '^(?!b)a$']) {
      const error = errorOf(() => jsonSchema(schema(pattern)));
      expect(AgentConfigError.isInstance(error)).toBe(true);
      expect(error?.message).toContain(`the pattern ${JSON.stringify(pattern)} needs backtracking`);
      expect(error?.message).toContain('rewrite it without backreferences or lookaround');
    }
    // A pattern that is not a regular expression at all is still reported as one.
    expect(errorOf(() => jsonSchema(schema('(')))?.message).toContain('Invalid regular expression');
  });
});
