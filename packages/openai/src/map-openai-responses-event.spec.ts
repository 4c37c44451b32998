import type { ResponseStreamEvent } from 'openai/resources/responses/responses';
import type { ModelEvent } from '@rxagent/core';
import { OpenAIResponsesEventMapper } from './map-openai-responses-event.js';
import { InStreamError } from './openai-error.js';

const event = (type: string, payload: Record<string, unknown> = {}) =>
  ({ type, sequence_number: 0, ...payload }) as unknown as ResponseStreamEvent;
const response = (status: string, extra: Record<string, unknown> = {}) => ({
  id: 'resp_9',
  model: 'gpt-test-1',
  status,
  output: [],
  usage: null,
  ...extra,
});
const run = (mapper: OpenAIResponsesEventMapper, events: ResponseStreamEvent[]): ModelEvent[] =>
  events.flatMap((e) => mapper.map(e));

describe('OpenAIResponsesEventMapper', () => {
  it('maps text deltas and ends on response.completed', () => {
    const mapper = new OpenAIResponsesEventMapper('gpt-test', 0);
    const events = run(mapper, [
      event('response.created', { response: response('in_progress') }),
      event('response.output_text.delta', { item_id: 'm', output_index: 0, content_index: 0, delta: 'Hi' }),
    ]);
    expect(events).toEqual([{ type: 'text-delta', index: 0, text: 'Hi' }]);
    expect(mapper.done).toBe(false);
    run(mapper, [event('response.completed', { response: response('completed') })]);
    expect(mapper.terminated).toBe(true);
    expect(mapper.done).toBe(true);
    expect(mapper.flush()).toEqual([
      expect.objectContaining({
        type: 'finish',
        reason: 'stop',
        message: expect.objectContaining({ model: 'gpt-test-1', responseId: 'resp_9' }) as unknown,
      }),
    ]);
  });

  it('uses the complete arguments of output_item.done even without deltas', () => {
    const mapper = new OpenAIResponsesEventMapper('gpt-test', 0);
    const item = { type: 'function_call', id: 'fc', call_id: 'call_1', name: 'read', arguments: '' };
    const events = run(mapper, [
      event('response.output_item.done', { output_index: 0, item: { ...item, arguments: '{"path":"a"}' } }),
    ]);
    expect(events).toEqual([
      { type: 'toolcall-start', index: 0, id: 'call_1', name: 'read' },
      {
        type: 'toolcall-end',
        index: 0,
        call: { type: 'tool-call', id: 'call_1', name: 'read', args: { path: 'a' } },
      },
    ]);
  });

  it('keeps separate reasoning summary parts apart', () => {
    const mapper = new OpenAIResponsesEventMapper('gpt-test', 0);
    const events = run(mapper, [
      event('response.reasoning_summary_text.delta', {
        item_id: 'rs',
        output_index: 0,
        summary_index: 0,
        delta: 'A',
      }),
      event('response.reasoning_summary_text.delta', {
        item_id: 'rs',
        output_index: 0,
        summary_index: 1,
        delta: 'B',
      }),
      event('response.reasoning_text.delta', {
        item_id: 'rs',
        output_index: 0,
        content_index: 0,
        delta: 'C',
      }),
    ]);
    expect(events.map((e) => e.type === 'thinking-delta' && e.index)).toEqual([0, 1, 2]);
  });

  it('throws InStreamError for flat error events and response.failed', () => {
    const mapper = new OpenAIResponsesEventMapper('gpt-test', 0);
    expect(() => mapper.map(event('error', { code: 'server_error', message: 'boom', param: null }))).toThrow(
      InStreamError,
    );
    try {
      mapper.map(
        event('response.failed', { response: response('failed', { error: { code: 'x', message: 'y' } }) }),
      );
    } catch (error) {
      expect((error as InStreamError).payload).toEqual({ code: 'x', message: 'y' });
    }
    expect.assertions(2);
  });

  it('ignores events it does not know', () => {
    const mapper = new OpenAIResponsesEventMapper('gpt-test', 0);
    expect(run(mapper, [event('keepalive'), event('response.web_search_call.searching')])).toEqual([]);
    expect(mapper.flush()).toEqual([]);
  });
});
