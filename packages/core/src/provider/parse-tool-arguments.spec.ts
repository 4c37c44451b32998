import { parseToolArguments } from './parse-tool-arguments.js';

describe('parseToolArguments', () => {
  it('parses JSON arguments (unicode included) and keeps no raw copy', () => {
    expect(parseToolArguments('c1', 'read', '{"path":"a.md","n":[1,"é"]}')).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'read',
      args: { path: 'a.md', n: [1, 'é'] },
    });
  });

  it.each(['', '  \n'])('reads %p as {}', (text) => {
    expect(parseToolArguments('c1', 'now', text)).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'now',
      args: {},
    });
  });

  it('keeps malformed JSON as argsText with the parse error, without throwing', () => {
    const call = parseToolArguments('c1', 'read', '{"path": "a');
    expect(call.args).toEqual({});
    expect(call.argsText).toBe('{"path": "a');
    expect(call.argsError).toMatch(/JSON|string/i);
  });

  it('keeps a JSON value that is not an object as it is (the loop validates it against the schema)', () => {
    expect(parseToolArguments('c1', 'n', '[1,2]').args).toEqual([1, 2]);
    expect(parseToolArguments('c1', 'n', '"text"').args).toBe('text');
  });
});
