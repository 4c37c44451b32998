import { checkElicitationAnswer, elicitationSchemaProblem } from './check-elicitation.js';
import type { ElicitationSchema } from './elicitation-types.js';

const form: ElicitationSchema = {
  type: 'object',
  properties: {
    name: { type: 'string', default: 'John Doe', minLength: 1, maxLength: 20 },
    age: { type: 'integer', minimum: 0, maximum: 150, default: 30 },
    score: { type: 'number', default: 95.5 },
    status: { type: 'string', enum: ['active', 'inactive'], default: 'active' },
    verified: { type: 'boolean', default: true },
    email: { type: 'string', format: 'email' },
    topics: { type: 'array', items: { anyOf: [{ const: 'rx' }, { const: 'ts' }] }, maxItems: 2 },
  },
  required: ['name'],
};

describe('checkElicitationAnswer', () => {
  it('fills every field left out with the form default (SEP-1034)', () => {
    expect(checkElicitationAnswer(form, { action: 'accept', content: {} })).toEqual({
      action: 'accept',
      content: { name: 'John Doe', age: 30, score: 95.5, status: 'active', verified: true },
    });
    expect(checkElicitationAnswer(form, { action: 'accept' })).toMatchObject({ action: 'accept' });
  });

  it('keeps the values given and passes decline and cancel as they are', () => {
    const content = { name: 'Ada', age: 36, email: 'ada@example.com', topics: ['rx', 'ts'] };
    expect(checkElicitationAnswer(form, { action: 'accept', content })).toEqual({
      action: 'accept',
      content: { ...content, score: 95.5, status: 'active', verified: true },
    });
    expect(checkElicitationAnswer(form, { action: 'decline' })).toEqual({ action: 'decline' });
    expect(checkElicitationAnswer(form, { action: 'cancel' })).toEqual({ action: 'cancel' });
  });

  it('declines values that do not fit, listing each issue', () => {
    const response = checkElicitationAnswer(form, {
      action: 'accept',
      content: {
        age: 2.5,
        status: 'gone',
        verified: 'yes',
        email: 'nope',
        topics: ['rx', 'rx'],
        extra: 1,
        name: '',
      },
    });
    expect(response.action).toBe('decline');
    const reason = (response as { reason: string }).reason;
    for (const issue of [
      '"extra": not a field of the form',
      '"name": expected at least 1 characters',
      '"age": expected an integer',
      '"status": expected one of ["active","inactive"]',
      '"verified": expected true or false',
      '"email": expected an email address',
      '"topics": expected each choice at most once',
    ])
      expect(reason).toContain(issue);
  });

  it('declines a required field without a value or default', () => {
    const strict: ElicitationSchema = {
      type: 'object',
      properties: { code: { type: 'string' } },
      required: ['code'],
    };
    expect(checkElicitationAnswer(strict, { action: 'accept', content: {} })).toEqual({
      action: 'decline',
      reason: 'The values do not fit the form: "code": required.',
    });
  });

  it('declines an answer that is not one (fail closed)', () => {
    for (const answer of [
      undefined,
      null,
      true,
      'accept',
      { action: 'ok' },
      { action: 'accept', content: [] },
    ])
      expect(checkElicitationAnswer(form, answer)).toMatchObject({
        action: 'decline',
        reason: expect.any(String),
      });
  });

  it('never lets a field named __proto__ set a prototype', () => {
    const schema: ElicitationSchema = { type: 'object', properties: { ['__proto__']: { type: 'string' } } };
    const content = JSON.parse('{"__proto__": "x"}') as Record<string, unknown>;
    const response = checkElicitationAnswer(schema, { action: 'accept', content });
    expect(response).toMatchObject({ action: 'accept' });
    const values = (response as { content: Record<string, unknown> }).content;
    expect(Object.getPrototypeOf(values)).toBe(Object.prototype);
    expect(JSON.stringify(values)).toBe('{"__proto__":"x"}');
  });
});

describe('elicitationSchemaProblem', () => {
  it('accepts the flat primitive subset', () => {
    expect(elicitationSchemaProblem(form)).toBeUndefined();
  });

  it.each([
    [{ type: 'array' }, 'the form must be { type: "object", properties: { … } }'],
    [{ type: 'object', properties: { a: { type: 'object' } } }, 'field "a" has type "object" (a string)'],
    [
      { type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } },
      'without string choices',
    ],
    [{ type: 'object', properties: { a: { type: 'string', enum: [1, 2] } } }, 'choices that are not strings'],
    [{ type: 'object', properties: {}, required: 'a' }, '"required" must be an array'],
  ])('names what is outside it: %j', (schema, problem) => {
    expect(elicitationSchemaProblem(schema)).toContain(problem);
  });
});
