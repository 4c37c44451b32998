import type { GenerateContentResponse } from '@google/genai';
import type { ModelEvent } from '@rxagent/core';
import { GoogleChunkMapper } from './map-google-chunk.js';

const chunk = (parts: Record<string, unknown>[], finishReason?: string): GenerateContentResponse =>
  ({
    candidates: [{ index: 0, content: { role: 'model', parts }, ...(finishReason && { finishReason }) }],
  }) as unknown as GenerateContentResponse;

function run(mapper: GoogleChunkMapper, chunks: GenerateContentResponse[]): ModelEvent[] {
  return [...chunks.flatMap((c) => mapper.map(c)), ...(mapper.terminated ? mapper.flush() : [])];
}

const finish = (events: ModelEvent[]) =>
  events.find((e) => e.type === 'finish') as Extract<ModelEvent, { type: 'finish' }>;

describe('GoogleChunkMapper', () => {
  it('is terminated by a finish reason only', () => {
    const mapper = new GoogleChunkMapper('m', 0);
    mapper.map(chunk([{ text: 'a' }]));
    expect(mapper.terminated).toBe(false);
    mapper.map(chunk([], 'STOP'));
    expect(mapper.terminated).toBe(true);
  });

  it('ignores a terminal functionCall chunk with no call open, and starts a new text part after a call', () => {
    const events = run(new GoogleChunkMapper('m', 0), [
      chunk([{ functionCall: {} }, { text: 'Before. ' }]),
      chunk([{ functionCall: { name: 'now' } }]),
      chunk([{ text: 'After.' }], 'STOP'),
    ]);
    expect(finish(events).message.content).toEqual([
      { type: 'text', text: 'Before. ' },
      { type: 'tool-call', id: 'call_1', name: 'now', args: {} },
      { type: 'text', text: 'After.' },
    ]);
  });

  it("unwraps a free-form tool's { input } and keeps unknown parts verbatim as provider parts", () => {
    const events = run(new GoogleChunkMapper('m', 0, new Set(['sql'])), [
      chunk([{ functionCall: { name: 'sql', args: { input: 'SELECT 1' } } }]),
      chunk([{ fileData: { fileUri: 'gs://b/o', mimeType: 'video/mp4' } }], 'STOP'),
    ]);
    expect(finish(events).message.content).toEqual([
      { type: 'tool-call', id: 'call_0', name: 'sql', args: 'SELECT 1' },
      {
        type: 'provider',
        provider: 'google',
        kind: 'part',
        data: { fileData: { fileUri: 'gs://b/o', mimeType: 'video/mp4' } },
        text: 'fileData',
      },
    ]);
  });

  it('turns an image into an image part, its signature into a provider part before it', () => {
    const events = run(new GoogleChunkMapper('m', 0), [
      chunk([{ inlineData: { mimeType: 'image/png', data: 'iVBOR' }, thoughtSignature: 's' }], 'STOP'),
    ]);
    expect(finish(events).message.content.map((p) => (p.type === 'provider' ? p.kind : p.type))).toEqual([
      'thought_signature',
      'image',
    ]);
  });

  it('gives the partial message with the call still streaming', () => {
    const mapper = new GoogleChunkMapper('m', 0);
    mapper.map(chunk([{ text: 'Hi' }, { functionCall: { name: 'read', willContinue: true } }]));
    expect(mapper.partial('cut')).toMatchObject({
      stopReason: 'error',
      errorMessage: 'cut',
      content: [
        { type: 'text', text: 'Hi' },
        { type: 'tool-call', name: 'read' },
      ],
    });
  });
});
