import { StreamedFunctionArgs } from './streamed-function-args.js';

describe('StreamedFunctionArgs', () => {
  it('joins string pieces of one path and builds nested objects and arrays', () => {
    const args = new StreamedFunctionArgs();
    args.add([{ jsonPath: '$.recipe.name', stringValue: 'Lasa', willContinue: true }]);
    args.add([{ jsonPath: '$.recipe.name', stringValue: 'gna' }]);
    args.add([{ jsonPath: '$.recipe.ingredients[0].amount', stringValue: '16 oz' }]);
    args.add([{ jsonPath: '$.recipe.ingredients[1].amount', numberValue: 2 }]);
    args.add([
      { jsonPath: "$.recipe['odd key']", boolValue: true },
      { jsonPath: '$.recipe.none', nullValue: 'NULL_VALUE' },
    ]);
    expect(args.value).toEqual({
      recipe: {
        name: 'Lasagna',
        ingredients: [{ amount: '16 oz' }, { amount: 2 }],
        'odd key': true,
        none: null,
      },
    });
  });

  it('skips paths it cannot read instead of throwing', () => {
    const args = new StreamedFunctionArgs();
    args.add([
      { jsonPath: 'location', stringValue: 'x' },
      { jsonPath: '$..bad', stringValue: 'y' },
      { stringValue: 'z' },
    ]);
    args.add([{ jsonPath: '$.ok', stringValue: 'yes' }]);
    expect(args.value).toEqual({ ok: 'yes' });
  });
});
