import * as incubating from '@opentelemetry/semantic-conventions/incubating';
import { ATTR_ERROR_TYPE } from '@opentelemetry/semantic-conventions';
import { GEN_AI, OPERATION } from './semconv.js';

// The names are copied (as the package asks of instrumentations); this pins each to it.
describe('the GenAI semantic-convention names', () => {
  it.each(Object.entries(GEN_AI).filter(([key]) => key !== 'ERROR_TYPE'))(
    '%s is the convention’s name',
    (key, name) => {
      expect((incubating as Record<string, unknown>)[`ATTR_GEN_AI_${key}`]).toBe(name);
    },
  );

  it('error.type is the stable attribute', () => {
    expect(GEN_AI.ERROR_TYPE).toBe(ATTR_ERROR_TYPE);
  });

  it.each(Object.entries(OPERATION))('the %s operation is named as in the conventions', (key, name) => {
    expect((incubating as Record<string, unknown>)[`GEN_AI_OPERATION_NAME_VALUE_${key}`]).toBe(name);
  });
});
