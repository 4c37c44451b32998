import { AssistantDraft } from './assistant-draft.js';

describe('AssistantDraft', () => {
  it('gives each part its index in order of first appearance', () => {
    const draft = new AssistantDraft('gpt-test', 7);
    expect(draft.thinking('r', 'hmm')).toEqual([{ type: 'thinking-delta', index: 0, text: 'hmm' }]);
    expect(draft.text('t', 'Hi')).toEqual([{ type: 'text-delta', index: 1, text: 'Hi' }]);
    expect(draft.startCall('a', 'call_a', 'read')).toEqual([
      { type: 'toolcall-start', index: 2, id: 'call_a', name: 'read' },
    ]);
    expect(draft.text('t', '!')).toEqual([{ type: 'text-delta', index: 1, text: '!' }]);
    expect(draft.text('t', '')).toEqual([]);
  });

  it('accumulates arguments and ends a call once', () => {
    const draft = new AssistantDraft('gpt-test', 0);
    draft.startCall('a', 'call_a', 'read');
    draft.callDelta('a', '{"pa');
    draft.callDelta('a', 'th":"x"}');
    const end = draft.endCall('a');
    expect(end).toEqual([
      {
        type: 'toolcall-end',
        index: 0,
        call: { type: 'tool-call', id: 'call_a', name: 'read', args: { path: 'x' } },
      },
    ]);
    expect(draft.endCall('a')).toEqual([]);
    expect(draft.callDelta('a', 'late')).toEqual([]);
  });

  it('starts a call on the fly for a delta without a start, with a generated id', () => {
    const draft = new AssistantDraft('gpt-test', 0);
    expect(draft.callDelta('x', '{}').map((e) => e.type)).toEqual(['toolcall-start', 'toolcall-delta']);
    expect(draft.finish({ reason: 'tool-calls' }).at(-1)).toMatchObject({
      message: { content: [{ type: 'tool-call', id: 'call_0', args: {} }] },
    });
  });

  it('finish ends open calls, emits usage, then finish; stop with calls becomes tool-calls', () => {
    const draft = new AssistantDraft('gpt-test', 42);
    draft.text('t', 'Checking.');
    draft.startCall('a', 'call_a', 'now');
    const usage = {
      inputTokens: 3,
      outputTokens: 2,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      totalTokens: 5,
    };
    const events = draft.finish({ reason: 'stop', usage, model: 'gpt-test-1', responseId: 'r1' });
    expect(events.map((e) => e.type)).toEqual(['toolcall-end', 'usage', 'finish']);
    expect(events[2]).toEqual({
      type: 'finish',
      reason: 'tool-calls',
      message: {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool-call', id: 'call_a', name: 'now', args: {} },
        ],
        stopReason: 'tool-calls',
        usage,
        provider: 'openai',
        model: 'gpt-test-1',
        timestamp: 42,
        responseId: 'r1',
      },
    });
  });

  it('reports the partial message with stopReason error', () => {
    const draft = new AssistantDraft('gpt-test', 0);
    draft.text('t', 'Hal');
    expect(draft.partial('cut')).toMatchObject({
      content: [{ type: 'text', text: 'Hal' }],
      stopReason: 'error',
      errorMessage: 'cut',
      model: 'gpt-test',
    });
  });
});
