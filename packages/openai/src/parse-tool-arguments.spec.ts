import { parseToolCall } from './parse-tool-arguments.js';

describe('parseToolCall', () => {
  it('parses JSON arguments', () => {
    expect(parseToolCall('c1', 'read', '{"path":"a.md","n":[1,2]}')).toEqual({
      type: 'tool-call',
      id: 'c1',
      name: 'read',
      args: { path: 'a.md', n: [1, 2] },
    });
  });

  it.each(['', '  \n'])('reads %p as {}', (text) => {
    expect(parseToolCall('c1', 'now', text)).toEqual({ type: 'tool-call', id: 'c1', name: 'now', args: {} });
  });

  it('keeps malformed JSON as argsText with the parse error, without throwing', () => {
    const call = parseToolCall('c1', 'read', '{"path": "a');
    expect(call.args).toEqual({});
    expect(call.argsText).toBe('{"path": "a');
    expect(call.argsError).toMatch(/JSON|string/i);
  });
});
