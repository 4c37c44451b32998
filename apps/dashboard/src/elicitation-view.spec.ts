import { toElicitationView } from './elicitation-view.js';

describe('toElicitationView', () => {
  it('gives each field of the form the input the page draws for it', () => {
    const view = toElicitationView({
      elicitationId: 'c1/elicitation-1',
      toolCallId: 'c1',
      toolName: 'book',
      source: 'restaurants',
      message: 'How many guests?',
      requestedSchema: {
        type: 'object',
        properties: {
          guests: { type: 'integer', minimum: 1, maximum: 12, title: 'Guests' },
          email: { type: 'string', format: 'email', description: 'For the confirmation' },
          terrace: { type: 'boolean', default: false },
          time: {
            type: 'string',
            oneOf: [
              { const: '19', title: '7 pm' },
              { const: '21', title: '9 pm' },
            ],
          },
          diet: { type: 'array', items: { type: 'string', enum: ['vegan', 'halal'] }, default: ['vegan'] },
        },
        required: ['guests'],
      },
    });
    expect(view).toEqual({
      elicitationId: 'c1/elicitation-1',
      toolName: 'book',
      source: 'restaurants',
      message: 'How many guests?',
      fields: [
        { name: 'guests', label: 'Guests', input: 'integer', required: true, min: 1, max: 12 },
        {
          name: 'email',
          label: 'email',
          input: 'text',
          required: false,
          format: 'email',
          description: 'For the confirmation',
        },
        { name: 'terrace', label: 'terrace', input: 'boolean', required: false, default: false },
        {
          name: 'time',
          label: 'time',
          input: 'choice',
          required: false,
          options: [
            { value: '19', label: '7 pm' },
            { value: '21', label: '9 pm' },
          ],
        },
        {
          name: 'diet',
          label: 'diet',
          input: 'choices',
          required: false,
          default: ['vegan'],
          options: [
            { value: 'vegan', label: 'vegan' },
            { value: 'halal', label: 'halal' },
          ],
        },
      ],
    });
  });
});
