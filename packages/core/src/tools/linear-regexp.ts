import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { RE2JS } from 're2js';

/**
 * The regular-expression engine of every JSON Schema validator (ajv's `code.regExp`): RE2
 * (`re2js`, pure JavaScript), which runs in time linear in the input, so a schema's `pattern`
 * (`patternProperties`, `propertyNames`) cannot block the event loop however hostile the
 * argument. Patterns RE2 cannot run in linear time (backreferences, lookahead, lookbehind)
 * are refused when the schema is compiled; a pattern that is no regular expression at all
 * throws the `SyntaxError` JavaScript would.
 *
 * @example
 * new Ajv({ code: { regExp: linearRegExp } }).compile({ type: 'string', pattern: '^([a-z]+\\s?)*$' });
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string) => {
    let compiled: RE2JS;
    try {
      compiled = RE2JS.compile(RE2JS.translateRegExp(pattern));
    } catch (error) {
      new RegExp(pattern, 'u'); // not a regular expression: its own SyntaxError says why
      throw new Error(
        `the pattern ${JSON.stringify(pattern)} needs backtracking, which can take exponential time: ` +
          `rewrite it without backreferences or lookaround (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    return { test: (input: string) => compiled.test(input) };
  },
  { code: 're2js' },
);
