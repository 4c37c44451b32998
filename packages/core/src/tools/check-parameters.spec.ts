import { z } from 'zod';
import { z as z3 } from 'zod/v3';
import * as zm from 'zod/mini';
import { AgentConfigError } from '../errors/agent-errors.js';
import { jsonSchema, tool } from './tool.js';

const make = (parameters: unknown) => () =>
  tool({ name: 'lookup', description: 'd', parameters: parameters as never, execute: () => 'ok' });

function errorOf(fn: () => unknown): Error | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe('tool(): parameters', () => {
  it('accepts zod 4 (classic and mini) and jsonSchema()', () => {
    expect(errorOf(make(z.object({ id: z.number() })))).toBeUndefined();
    expect(errorOf(make(zm.object({ id: zm.number() })))).toBeUndefined();
    expect(errorOf(make(jsonSchema({ type: 'object' })))).toBeUndefined();
  });

  it('refuses a zod 3 schema, saying zod 4 is needed and how to import it', () => {
    // Shaped like a zod 3 schema: `_def` and `safeParse`, no `_zod`.
    const zod3Like = {
      _def: { typeName: 'ZodObject', shape: () => ({}) },
      safeParse: () => ({ success: true, data: {} }),
      parse: (v: unknown) => v,
    };
    const error = errorOf(make(zod3Like));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toBe(
      'The parameters for tool "lookup" are a zod 3 schema, and rxagent needs zod 4: use zod 4 ' +
        '(`import { z } from "zod"` with zod ^4, or `import { z } from "zod/v4"` with zod 3.25).',
    );
  });

  it('refuses a real zod 3 schema (zod/v3) the same way', () => {
    const error = errorOf(make(z3.object({ id: z3.number() })));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toContain('are a zod 3 schema, and rxagent needs zod 4');
  });

  it('refuses a bare JSON Schema, saying to wrap it with jsonSchema()', () => {
    const error = errorOf(make({ type: 'object', properties: {} }));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toContain(
      'The parameters for tool "lookup" are neither a zod 4 schema nor jsonSchema({...}): ' +
        'received {"type":"object","properties":{}} (an object). Wrap a plain JSON Schema with jsonSchema({...})',
    );
  });

  it('refuses missing parameters', () => {
    const error = errorOf(make(undefined));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toBe(
      'Tool "lookup" needs "parameters": a zod schema such as z.object({...}), or jsonSchema({...}); received undefined.',
    );
  });
});
