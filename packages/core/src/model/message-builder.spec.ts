import { MessageBuilder } from './message-builder.js';

describe('MessageBuilder', () => {
  it('keeps interleaved parallel tool calls apart by index', () => {
    const b = new MessageBuilder('p', 'm', 5);
    b.apply({ type: 'text-delta', index: 0, text: 'Let me ' });
    b.apply({ type: 'toolcall-start', index: 1, id: 'a', name: 'read' });
    b.apply({ type: 'toolcall-start', index: 2, id: 'b', name: 'list' });
    b.apply({ type: 'toolcall-delta', index: 1, argsText: '{"pa' });
    b.apply({ type: 'toolcall-delta', index: 2, argsText: '{}' });
    b.apply({ type: 'toolcall-delta', index: 1, argsText: 'th":"x"}' });
    b.apply({ type: 'text-delta', index: 0, text: 'look.' });
    expect(b.message.content).toEqual([
      { type: 'text', text: 'Let me look.' },
      { type: 'tool-call', id: 'a', name: 'read', args: {}, argsText: '{"path":"x"}' },
      { type: 'tool-call', id: 'b', name: 'list', args: {}, argsText: '{}' },
    ]);
    expect(b.message.timestamp).toBe(5);
  });

  it('makes a new snapshot per delta and leaves earlier snapshots alone', () => {
    const b = new MessageBuilder('p', 'm', 0);
    b.apply({ type: 'text-delta', index: 0, text: 'a' });
    const first = b.message;
    b.apply({ type: 'text-delta', index: 0, text: 'b' });
    expect(first.content).toEqual([{ type: 'text', text: 'a' }]);
    expect(b.message.content).toEqual([{ type: 'text', text: 'ab' }]);
  });

  it('keeps a thinking signature (replaced, not appended) and returns the delta', () => {
    const b = new MessageBuilder('p', 'm', 0);
    expect(b.apply({ type: 'thinking-delta', index: 0, text: 'hmm' })).toEqual({
      kind: 'thinking',
      text: 'hmm',
      index: 0,
    });
    b.apply({ type: 'thinking-delta', index: 0, text: '', signature: 'sig1' });
    b.apply({ type: 'thinking-delta', index: 0, text: '', signature: 'sig2' });
    expect(b.message.content).toEqual([{ type: 'thinking', text: 'hmm', signature: 'sig2' }]);
  });

  it('leaves the message as it is for the rate-limit event (headers are not content)', () => {
    const builder = new MessageBuilder('openai', 'gpt-4o-mini', 0);
    builder.apply({ type: 'text-delta', index: 0, text: 'Hi' });
    const before = builder.message;
    const delta = builder.apply({ type: 'rate-limit', limits: { requests: { remaining: 1 } } });
    expect(delta).toBeUndefined();
    expect(builder.message).toBe(before);
  });
});
