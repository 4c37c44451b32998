import { z } from 'zod';
import type { ChatModel } from '../model/chat-model.js';
import { toolParametersJsonSchema } from '../tools/validate-args.js';
import { resolveOutputMode } from './output-mode.js';
import { closeObjects, dropAddedNulls, toStrictJsonSchema } from './strict-json-schema.js';

const schema = toolParametersJsonSchema(
  z.object({
    city: z.string(),
    note: z.string().optional(),
    kind: z.enum(['sun', 'rain']).optional(),
    days: z.array(z.object({ day: z.string(), rainMm: z.number().optional() })),
    extra: z.union([z.string(), z.number()]).optional(),
  }),
);

describe('toStrictJsonSchema', () => {
  it('requires every property, makes the optional ones nullable and closes every object', () => {
    expect(toStrictJsonSchema(schema)).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string' },
        note: { type: ['string', 'null'] },
        kind: { type: ['string', 'null'], enum: ['sun', 'rain', null] },
        days: {
          type: 'array',
          items: {
            type: 'object',
            properties: { day: { type: 'string' }, rainMm: { type: ['number', 'null'] } },
            required: ['day', 'rainMm'],
            additionalProperties: false,
          },
        },
        extra: { type: ['string', 'number', 'null'] },
      },
      required: ['city', 'note', 'kind', 'days', 'extra'],
      additionalProperties: false,
    });
  });

  it('wraps a property without a type in anyOf with null', () => {
    const out = toStrictJsonSchema({
      type: 'object',
      properties: { ref: { $ref: '#/$defs/x' } },
      $defs: { x: { type: 'object', properties: {} } },
    });
    expect(out).toMatchObject({
      properties: { ref: { anyOf: [{ $ref: '#/$defs/x' }, { type: 'null' }] } },
      $defs: { x: { type: 'object', properties: {}, required: [], additionalProperties: false } },
    });
  });

  it('turns oneOf into anyOf and drops default and $schema', () => {
    expect(
      toStrictJsonSchema({ $schema: 'x', oneOf: [{ type: 'string', default: 'a' }, { type: 'number' }] }),
    ).toEqual({ anyOf: [{ type: 'string' }, { type: 'number' }] });
  });
});

describe('dropAddedNulls', () => {
  it('removes the nulls sent for optional properties, at any depth, and keeps real values', () => {
    const answer = {
      city: 'Oslo',
      note: null,
      kind: 'sun',
      days: [{ day: 'mon', rainMm: null }],
      extra: null,
    };
    expect(dropAddedNulls(answer, schema)).toEqual({ city: 'Oslo', kind: 'sun', days: [{ day: 'mon' }] });
  });

  it('keeps a null that the original schema accepts, and a null of a required property (for the validator)', () => {
    const original = {
      type: 'object',
      properties: { a: { type: ['string', 'null'] }, b: { type: 'string' } },
      required: ['b'],
    };
    expect(dropAddedNulls({ a: null, b: null }, original)).toEqual({ a: null, b: null });
  });
});

describe('closeObjects', () => {
  it('adds additionalProperties: false to objects that do not set it, keeping required lists', () => {
    expect(closeObjects(schema)).toMatchObject({
      required: ['city', 'days'],
      additionalProperties: false,
      properties: { days: { items: { additionalProperties: false, required: ['day'] } } },
    });
  });
});

describe('resolveOutputMode', () => {
  const model = (provider: string, modelId: string) => ({ provider, modelId }) as ChatModel;
  it.each([
    ['openai', 'gpt-4o-mini', 'native'],
    ['openai', 'gpt-5.4', 'native'],
    ['openai', 'gpt-3.5-turbo', 'tool'],
    ['openai', 'gpt-4-turbo', 'tool'],
    ['anthropic', 'claude-sonnet-4-5-20250929', 'native'],
    ['anthropic', 'claude-haiku-5-5', 'native'],
    ['anthropic', 'claude-3-7-sonnet-20250219', 'tool'],
    ['anthropic', 'claude-sonnet-4-20250514', 'tool'],
    ['scripted', 'anything', 'tool'],
  ])('auto picks for %s %s: %s', (provider, id, mode) => {
    expect(resolveOutputMode(model(provider, id))).toBe(mode);
  });

  it('keeps an explicit mode', () => {
    expect(resolveOutputMode(model('scripted', 'x'), 'native')).toBe('native');
    expect(resolveOutputMode(model('openai', 'gpt-4o'), 'tool')).toBe('tool');
  });
});
