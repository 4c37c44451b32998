import type { AssistantMessage, Message } from '@rxagent/core';
import { convertToGoogleContents } from './convert-to-google-contents.js';

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 };
const assistant = (content: AssistantMessage['content'], provider = 'google'): AssistantMessage => ({
  role: 'assistant',
  content,
  stopReason: 'stop',
  usage,
  provider,
  model: 'm',
  timestamp: 0,
});
const user = (content: string): Message => ({ role: 'user', content, timestamp: 0 });
const signature = (thoughtSignature: string) =>
  ({ type: 'provider', provider: 'google', kind: 'thought_signature', data: { thoughtSignature } }) as const;

describe('convertToGoogleContents', () => {
  it('puts the system prompt and transcript system messages in systemInstruction', () => {
    const { systemInstruction, contents } = convertToGoogleContents(
      [
        { type: 'text', text: 'A' },
        { type: 'text', text: 'B', cache: true },
      ],
      [{ role: 'system', content: 'C', timestamp: 0 }, user('Hi')],
    );
    expect(systemInstruction).toEqual({ parts: [{ text: 'A\n\nB\n\nC' }] });
    expect(contents).toEqual([{ role: 'user', parts: [{ text: 'Hi' }] }]);
  });

  it('sends user images inline or by URI', () => {
    const { contents } = convertToGoogleContents(undefined, [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
          { type: 'image', url: 'gs://bucket/cat.jpg', mimeType: 'image/jpeg' },
        ],
        timestamp: 0,
      },
    ]);
    expect(contents[0]!.parts).toEqual([
      { text: 'What is this?' },
      { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
      { fileData: { fileUri: 'gs://bucket/cat.jpg', mimeType: 'image/jpeg' } },
    ]);
  });

  it('puts each thought signature back on the part it came with', () => {
    const { contents } = convertToGoogleContents(undefined, [
      user('q'),
      assistant([
        { type: 'thinking', text: 'Plan.', signature: 'sig-1' },
        { type: 'text', text: 'Calling.' },
        signature('sig-2'),
        { type: 'tool-call', id: 'c1', name: 'read', args: { path: 'a' } },
        { type: 'tool-call', id: 'c2', name: 'read', args: { path: 'b' } },
        signature('sig-3'),
      ]),
    ]);
    expect(contents[1]).toEqual({
      role: 'model',
      parts: [
        { text: 'Plan.', thought: true, thoughtSignature: 'sig-1' },
        { text: 'Calling.' },
        { functionCall: { name: 'read', args: { path: 'a' } }, thoughtSignature: 'sig-2' },
        { functionCall: { name: 'read', args: { path: 'b' } } },
        { text: '', thoughtSignature: 'sig-3' },
      ],
    });
  });

  it('keeps a signature that finds no part of its own on an empty text part', () => {
    const { contents } = convertToGoogleContents(undefined, [
      user('q'),
      assistant([
        { type: 'text', text: 'A' },
        signature('sig-a'),
        signature('sig-b'),
        { type: 'text', text: 'B' },
      ]),
    ]);
    expect(contents[1]!.parts).toEqual([
      { text: 'A' },
      { text: '', thoughtSignature: 'sig-a' },
      { text: 'B', thoughtSignature: 'sig-b' },
    ]);
  });

  it("leaves out other providers' thinking and parts, unsigned thinking, grounding metadata", () => {
    const { contents } = convertToGoogleContents(undefined, [
      user('q'),
      assistant(
        [
          { type: 'thinking', text: 'secret', signature: 'anthropic-sig' },
          { type: 'provider', provider: 'anthropic', kind: 'server_tool_use', data: {} },
          { type: 'text', text: 'Answer.' },
        ],
        'anthropic',
      ),
      user('more'),
      assistant([
        { type: 'thinking', text: 'unsigned' },
        { type: 'text', text: 'Grounded.' },
        {
          type: 'provider',
          provider: 'google',
          kind: 'grounding_metadata',
          data: { webSearchQueries: ['x'] },
        },
      ]),
    ]);
    expect(contents.map((c) => c.parts)).toEqual([
      [{ text: 'q' }],
      [{ text: 'Answer.' }],
      [{ text: 'more' }],
      [{ text: 'Grounded.' }],
    ]);
  });

  it('answers calls with functionResponse parts in one user content, errors as { error }, images after', () => {
    const { contents } = convertToGoogleContents(undefined, [
      user('q'),
      assistant([
        { type: 'tool-call', id: 'c1', name: 'read', args: {}, itemId: 'g-1' },
        { type: 'tool-call', id: 'c2', name: 'shot', args: {} },
      ]),
      {
        role: 'tool',
        toolCallId: 'c1',
        toolName: 'read',
        content: [{ type: 'text', text: 'ENOENT' }],
        isError: true,
        timestamp: 0,
      },
      {
        role: 'tool',
        toolCallId: 'c2',
        toolName: 'shot',
        content: [
          { type: 'text', text: 'done' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        isError: false,
        timestamp: 0,
      },
      user('next'),
    ]);
    expect(contents.slice(1)).toEqual([
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'g-1', name: 'read', args: {} } },
          { functionCall: { name: 'shot', args: {} } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'g-1', name: 'read', response: { error: 'ENOENT' } } },
          { functionResponse: { name: 'shot', response: { output: 'done' } } },
          { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
          { text: 'next' },
        ],
      },
    ]);
  });

  it("wraps a free-form tool's text in { input } and drops empty failed turns", () => {
    const failed: AssistantMessage = { ...assistant([]), stopReason: 'error' };
    const { contents } = convertToGoogleContents(
      undefined,
      [user('q'), failed, assistant([{ type: 'tool-call', id: 'c', name: 'sql', args: 'SELECT 1' }])],
      new Set(['sql']),
    );
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'q' }] },
      { role: 'model', parts: [{ functionCall: { name: 'sql', args: { input: 'SELECT 1' } } }] },
    ]);
  });

  it('sends code execution parts back verbatim', () => {
    const code = { executableCode: { language: 'PYTHON', code: 'print(1)' }, thoughtSignature: 's' };
    const { contents } = convertToGoogleContents(undefined, [
      user('q'),
      assistant([{ type: 'provider', provider: 'google', kind: 'executable_code', data: code }]),
    ]);
    expect(contents[1]!.parts).toEqual([code]);
  });
});
