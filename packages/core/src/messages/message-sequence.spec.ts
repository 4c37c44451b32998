import { assistantMessage } from '@rxagent/testing';
import { convertToModelMessages } from './convert-to-model.js';
import { assistantText, toolCalls } from './message-helpers.js';
import {
  MISSING_TOOL_RESULT_TEXT,
  repairMessageSequence,
  validateMessageSequence,
} from './message-sequence.js';
import type { AgentMessage, ToolResultMessage } from './types.js';

const user = (content: string): AgentMessage => ({ role: 'user', content, timestamp: 0 });
const calls = (...ids: string[]) =>
  assistantMessage(
    ids.map((id) => ({ type: 'tool-call' as const, id, name: 'read', args: {} })),
    'tool-calls',
  );
const result = (id: string, text = 'ok'): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'read',
  content: [{ type: 'text', text }],
  isError: false,
  timestamp: 0,
});

describe('validateMessageSequence', () => {
  it('accepts a closed transcript, custom messages anywhere', () => {
    const custom: AgentMessage = { role: 'custom', customType: 'note', content: 1, timestamp: 0 };
    expect(
      validateMessageSequence([user('q'), calls('a', 'b'), result('b'), custom, result('a'), user('next')]),
    ).toEqual([]);
  });

  it('accepts assistant messages with provider and image parts (server tools, generated images)', () => {
    const withParts: AgentMessage = {
      ...assistantMessage([{ type: 'text', text: 'Found it.' }]),
      content: [
        { type: 'provider', provider: 'openai', kind: 'web_search_call', data: { id: 'ws_1' } },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        { type: 'text', text: 'Found it.' },
      ],
    };
    expect(validateMessageSequence([user('q'), withParts, user('next')])).toEqual([]);
    const broken = { ...withParts, content: [{ type: 'provider', data: {} }] } as unknown as AgentMessage;
    expect(validateMessageSequence([user('q'), broken])).toHaveLength(1);
  });

  it('reports missing results, orphan results and unknown shapes with their index', () => {
    const issues = validateMessageSequence([
      user('q'),
      calls('a', 'b'),
      result('a'),
      user('x'),
      result('zz'),
      { role: 'robot' },
      7,
    ]);
    expect(issues).toEqual([
      { kind: 'missing-tool-result', index: 1, toolCallId: 'b', toolName: 'read' },
      { kind: 'orphan-tool-result', index: 4, toolCallId: 'zz', toolName: 'read' },
      {
        kind: 'invalid-message',
        index: 5,
        detail: 'not a message with a known role and valid content parts',
      },
      {
        kind: 'invalid-message',
        index: 6,
        detail: 'not a message with a known role and valid content parts',
      },
    ]);
  });

  it('reports a result that comes after a later user message as missing + orphan', () => {
    const issues = validateMessageSequence([calls('a'), user('interrupt'), result('a')]);
    expect(issues.map((i) => i.kind)).toEqual(['missing-tool-result', 'orphan-tool-result']);
  });
});

describe('repairMessageSequence', () => {
  it('gives missing calls a synthetic error result in call order and drops orphans', () => {
    const input = [user('q'), calls('a', 'b', 'c'), result('c'), result('a'), user('later'), result('x')];
    const { messages, repairs } = repairMessageSequence(input, 42);
    expect(repairs.map((r) => r.kind)).toEqual(['missing-tool-result', 'orphan-tool-result']);
    expect(messages.map((m) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role))).toEqual([
      'user',
      'assistant',
      'tool:a',
      'tool:b',
      'tool:c',
      'user',
    ]);
    expect(messages[3]).toEqual({
      role: 'tool',
      toolCallId: 'b',
      toolName: 'read',
      content: [{ type: 'text', text: MISSING_TOOL_RESULT_TEXT }],
      isError: true,
      timestamp: 42,
    });
    expect(validateMessageSequence(messages)).toEqual([]);
    expect(input).toHaveLength(6); // the input is left alone
  });

  it('returns a copy with no repairs for a valid transcript', () => {
    const input = [user('q'), calls('a'), result('a')];
    const { messages, repairs } = repairMessageSequence(input);
    expect(repairs).toEqual([]);
    expect(messages).toEqual(input);
    expect(messages).not.toBe(input);
  });
});

describe('message helpers', () => {
  it('reads text and tool calls of an assistant message', () => {
    const m = assistantMessage([
      { type: 'thinking', text: 'hmm' },
      { type: 'text', text: 'Hello ' },
      { type: 'tool-call', id: 'x', name: 'read', args: { path: 'a' } },
      { type: 'text', text: 'world' },
    ]);
    expect(assistantText(m)).toBe('Hello world');
    expect(toolCalls(m).map((c) => c.id)).toEqual(['x']);
    expect(assistantText(user('u'))).toBe('');
    expect(toolCalls(undefined)).toEqual([]);
  });

  it('drops custom messages and empty failed assistant messages for the model, keeps the abort marker', () => {
    const failed = { ...assistantMessage([], 'error'), errorMessage: 'boom' };
    const marker = assistantMessage([{ type: 'text', text: '[Request interrupted by user]' }], 'aborted');
    const custom: AgentMessage = { role: 'custom', customType: 'ui', content: null, timestamp: 0 };
    expect(convertToModelMessages([user('a'), failed, custom, marker])).toEqual([user('a'), marker]);
  });

  it('round-trips a transcript through JSON', () => {
    const transcript = [
      user('q'),
      calls('a'),
      result('a'),
      assistantMessage([{ type: 'text', text: 'done' }]),
    ];
    expect(JSON.parse(JSON.stringify(transcript))).toEqual(transcript);
  });
});
