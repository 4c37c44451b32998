import { OverloadedError, type ModelEvent } from '@rxagent/core';
import { AnthropicEventMapper, type AnthropicStreamEvent } from './map-anthropic-event.js';

const ev = (type: string, fields: Record<string, unknown> = {}) =>
  ({ type, ...fields }) as AnthropicStreamEvent;
const start = (usage: Record<string, unknown>) =>
  ev('message_start', { message: { id: 'msg_1', model: 'claude-x', usage } });
const blockStart = (index: number, content_block: Record<string, unknown>) =>
  ev('content_block_start', { index, content_block });
const delta = (index: number, d: Record<string, unknown>) => ev('content_block_delta', { index, delta: d });

function run(events: AnthropicStreamEvent[]): { mapper: AnthropicEventMapper; out: ModelEvent[] } {
  const mapper = new AnthropicEventMapper('claude-default', 42);
  return { mapper, out: events.flatMap((e) => mapper.map(e)) };
}

describe('AnthropicEventMapper', () => {
  it('maps text blocks to text-delta with the block index and ends with usage then finish', () => {
    const { out } = run([
      start({ input_tokens: 5, output_tokens: 1 }),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Hi' }),
      ev('content_block_stop', { index: 0 }),
      ev('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 3 } }),
      ev('message_stop'),
    ]);
    expect(out.map((e) => e.type)).toEqual(['text-delta', 'usage', 'finish']);
    expect(out[0]).toEqual({ type: 'text-delta', index: 0, text: 'Hi' });
    expect(out[2]).toMatchObject({
      type: 'finish',
      reason: 'stop',
      message: { model: 'claude-x', responseId: 'msg_1', timestamp: 42, provider: 'anthropic' },
    });
  });

  it('replaces cumulative usage and overwrites repeated input and cache counts', () => {
    const { out } = run([
      start({
        input_tokens: 10,
        cache_read_input_tokens: 100,
        cache_creation_input_tokens: 0,
        output_tokens: 1,
      }),
      ev('message_delta', { delta: { stop_reason: null }, usage: { output_tokens: 4 } }),
      ev('message_delta', {
        delta: { stop_reason: 'end_turn' },
        usage: {
          output_tokens: 9,
          input_tokens: 12,
          cache_creation_input_tokens: 50,
          cache_read_input_tokens: null,
        },
      }),
      ev('message_stop'),
    ]);
    expect(out[0]).toEqual({
      type: 'usage',
      usage: {
        inputTokens: 162,
        outputTokens: 9,
        cacheReadTokens: 100,
        cacheWriteTokens: 50,
        totalTokens: 171,
      },
    });
  });

  it('reports thinking tokens as reasoningTokens', () => {
    const { out } = run([
      start({ input_tokens: 1, output_tokens: 1 }),
      ev('message_delta', {
        delta: { stop_reason: 'end_turn' },
        usage: { output_tokens: 30, output_tokens_details: { thinking_tokens: 20 } },
      }),
      ev('message_stop'),
    ]);
    expect(out[0]).toMatchObject({ usage: { outputTokens: 30, reasoningTokens: 20 } });
  });

  it('sets the thinking signature verbatim, the last signature_delta replacing earlier ones', () => {
    const { mapper, out } = run([
      start({ input_tokens: 1 }),
      blockStart(0, { type: 'thinking', thinking: '', signature: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Hmm' }),
      delta(0, { type: 'signature_delta', signature: 'first' }),
      delta(0, { type: 'signature_delta', signature: 'final+/=' }),
      ev('content_block_stop', { index: 0 }),
    ]);
    expect(out).toEqual([
      { type: 'thinking-delta', index: 0, text: 'Hmm' },
      { type: 'thinking-delta', index: 0, text: '', signature: 'first' },
      { type: 'thinking-delta', index: 0, text: '', signature: 'final+/=' },
    ]);
    expect(mapper.partial().content).toEqual([{ type: 'thinking', text: 'Hmm', signature: 'final+/=' }]);
  });

  it('turns tool_use into start, deltas and an end with parsed args, indexed by the part position (not the block index)', () => {
    const { out } = run([
      start({ input_tokens: 1 }),
      blockStart(3, { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} }),
      delta(3, { type: 'input_json_delta', partial_json: '' }),
      delta(3, { type: 'input_json_delta', partial_json: '{"a":' }),
      delta(3, { type: 'input_json_delta', partial_json: '1}' }),
      ev('content_block_stop', { index: 3 }),
    ]);
    expect(out).toEqual([
      { type: 'toolcall-start', index: 0, id: 'toolu_1', name: 'read' },
      { type: 'toolcall-delta', index: 0, argsText: '{"a":' },
      { type: 'toolcall-delta', index: 0, argsText: '1}' },
      {
        type: 'toolcall-end',
        index: 0,
        call: { type: 'tool-call', id: 'toolu_1', name: 'read', args: { a: 1 } },
      },
    ]);
  });

  it('uses a tool_use start input when no delta follows', () => {
    const { out } = run([
      blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: { q: 'x' } }),
      ev('content_block_stop', { index: 0 }),
    ]);
    expect(out[1]).toMatchObject({ type: 'toolcall-end', call: { args: { q: 'x' } } });
  });

  it('ignores ping and unknown events, keeps server tool blocks as provider parts and citations on their text', () => {
    const { mapper, out } = run([
      start({ input_tokens: 1 }),
      ev('ping'),
      ev('brand_new_event', { index: 0 }),
      blockStart(0, { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '{"query":"x"}' }),
      ev('content_block_stop', { index: 0 }),
      blockStart(1, { type: 'text', text: '' }),
      delta(1, {
        type: 'citations_delta',
        citation: { type: 'web_search_result_location', url: 'https://x.dev' },
      }),
      delta(1, { type: 'text_delta', text: 'ok' }),
    ]);
    const serverPart = {
      type: 'provider',
      provider: 'anthropic',
      kind: 'server_tool_use',
      data: { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'x' } },
      text: 'web_search: x',
    };
    expect(out).toEqual([
      { type: 'part', index: 0, part: serverPart },
      { type: 'text-delta', index: 1, text: 'ok' },
    ]);
    expect(mapper.partial().content).toEqual([
      serverPart,
      {
        type: 'text',
        text: 'ok',
        citations: [
          {
            kind: 'url',
            url: 'https://x.dev',
            raw: { type: 'web_search_result_location', url: 'https://x.dev' },
          },
        ],
      },
    ]);
  });

  it('throws the typed error of an in-stream error event', () => {
    const mapper = new AnthropicEventMapper('m', 0);
    let thrown: unknown;
    try {
      mapper.map(ev('error', { error: { type: 'overloaded_error', message: 'Overloaded' } }));
    } catch (error) {
      thrown = error;
    }
    expect(OverloadedError.isInstance(thrown)).toBe(true);
  });

  it('gives a partial message with the unfinished tool call and no finish', () => {
    const { mapper } = run([
      start({ input_tokens: 1 }),
      blockStart(0, { type: 'tool_use', id: 't', name: 'n', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '{"q": "x' }),
    ]);
    expect(mapper.finished).toBe(false);
    expect(mapper.received).toBe(true);
    expect(mapper.partial()).toMatchObject({
      stopReason: 'error',
      content: [
        { type: 'tool-call', id: 't', args: {}, argsText: '{"q": "x', argsError: expect.any(String) },
      ],
    });
  });

  it('finishes with stop when message_stop comes without a stop reason', () => {
    const { mapper, out } = run([ev('message_stop')]);
    expect(mapper.finished).toBe(true);
    expect(out[1]).toMatchObject({
      type: 'finish',
      reason: 'stop',
      message: { model: 'claude-default', content: [] },
    });
  });
});
