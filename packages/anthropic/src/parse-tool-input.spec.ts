import { parseToolInput } from './parse-tool-input.js';

describe('parseToolInput', () => {
  it('parses JSON and keeps the raw text', () => {
    expect(parseToolInput('t', 'n', '{"a":[1,"é"]}')).toEqual({
      type: 'tool-call',
      id: 't',
      name: 'n',
      args: { a: [1, 'é'] },
      argsText: '{"a":[1,"é"]}',
    });
  });

  it('treats blank input as {}', () => {
    const call = parseToolInput('t', 'n', ' ');
    expect(call.args).toEqual({});
    expect(call).not.toHaveProperty('argsError');
  });

  it('keeps malformed input with the parse error instead of throwing', () => {
    expect(parseToolInput('t', 'n', '{"a":')).toMatchObject({
      args: {},
      argsText: '{"a":',
      argsError: expect.stringMatching(/JSON/),
    });
  });
});
