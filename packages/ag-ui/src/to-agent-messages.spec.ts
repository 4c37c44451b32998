import { AGUIInputError } from './ag-ui-errors.js';
import { statePatch } from './state-patch.js';
import { toAgentMessages } from './to-agent-messages.js';

describe('toAgentMessages', () => {
  it('turns an AG-UI conversation into rxagent messages: calls, results, system text', () => {
    const messages = toAgentMessages([
      { id: 's', role: 'developer', content: 'Be brief.' },
      {
        id: 'u',
        role: 'user',
        content: [
          { type: 'text', text: 'Look ' },
          { type: 'text', text: 'it up' },
        ],
      },
      {
        id: 'a',
        role: 'assistant',
        content: 'Looking.',
        toolCalls: [
          { id: 'c1', type: 'function', function: { name: 'look_up', arguments: '{"word":"rx"}' } },
        ],
      },
      { id: 't', role: 'tool', toolCallId: 'c1', content: 'rx: reactive' },
      { id: 'r', role: 'reasoning', content: 'thinking' },
    ]);
    expect(messages).toEqual([
      { role: 'system', content: 'Be brief.', timestamp: 0 },
      { role: 'user', content: 'Look it up', timestamp: 0 },
      expect.objectContaining({
        role: 'assistant',
        stopReason: 'tool-calls',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool-call', id: 'c1', name: 'look_up', args: { word: 'rx' }, argsText: '{"word":"rx"}' },
        ],
      }),
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'look_up',
        content: [{ type: 'text', text: 'rx: reactive' }],
        isError: false,
        timestamp: 0,
      },
    ]);
  });

  it('keeps malformed call arguments as an argsError (the loop answers it as a failed call)', () => {
    const [assistant] = toAgentMessages([
      {
        id: 'a',
        role: 'assistant',
        toolCalls: [{ id: 'c1', type: 'function', function: { name: 'x', arguments: '{"a":' } }],
      },
    ]);
    expect(assistant).toMatchObject({
      content: [{ type: 'tool-call', args: {}, argsError: expect.any(String) as unknown }],
    });
  });

  it('refuses a tool message that answers no earlier call, with a typed error that says what to send', () => {
    const run = () => toAgentMessages([{ id: 't', role: 'tool', toolCallId: 'nope', content: 'ok' }]);
    expect(run).toThrow(AGUIInputError);
    expect(run).toThrow(/answers tool call nope, which no earlier assistant message made/);
  });
});

describe('statePatch', () => {
  it('patches what changed, key by key, with JSON Pointer escapes', () => {
    expect(
      statePatch(
        { step: 1, gone: true, outcomes: { a: 'executed' }, list: [1] },
        { step: 2, outcomes: { a: 'executed', 'b/~c': 'denied' }, list: [1, 2] },
      ),
    ).toEqual([
      { op: 'remove', path: '/gone' },
      { op: 'replace', path: '/step', value: 2 },
      { op: 'add', path: '/outcomes/b~1~0c', value: 'denied' },
      { op: 'replace', path: '/list', value: [1, 2] },
    ]);
  });

  it('is empty for equal states', () => {
    expect(statePatch({ a: { b: [1, { c: 2 }] } }, { a: { b: [1, { c: 2 }] } })).toEqual([]);
  });
});
