import type { ToolSpec } from '@rxagent/core/provider';
import { extraToolCall } from './offline-extra-tool.js';

const spec = (name: string, properties: Record<string, unknown> = {}, required: string[] = []): ToolSpec => ({
  name,
  description: name,
  parameters: { type: 'object', properties, required },
});

describe('extraToolCall', () => {
  it('is undefined when only the demo tools are offered', () => {
    expect(extraToolCall([spec('list'), spec('read'), spec('grep')], 'Why?')).toBeUndefined();
  });

  it('prefers an echo tool and sends it the question', () => {
    const tools = [
      spec('srv_get-sum', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
      spec('srv_echo', { message: { type: 'string' } }, ['message']),
    ];
    expect(extraToolCall(tools, 'Why?')).toEqual({ name: 'srv_echo', args: { message: 'Why?' } });
  });

  it('else takes the first tool whose required arguments it can make up', () => {
    const tools = [
      spec('srv_upload', { file: { type: 'object' } }, ['file']),
      spec('srv_get-sum', { a: { type: 'number' }, b: { type: 'number' } }, ['a', 'b']),
    ];
    expect(extraToolCall(tools, 'Why?')).toEqual({ name: 'srv_get-sum', args: { a: 1, b: 2 } });
  });
});
