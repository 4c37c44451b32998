import { mapCallResult } from './map-call-result.js';

describe('mapCallResult', () => {
  it('keeps text and images in order and marks isError results', () => {
    expect(
      mapCallResult({
        content: [
          { type: 'text', text: 'a' },
          { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        ],
        isError: true,
      }),
    ).toEqual({
      content: [
        { type: 'text', text: 'a' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      ],
      isError: true,
    });
  });

  it('gives structured content as JSON when the server sent no content for it', () => {
    expect(mapCallResult({ content: [], structuredContent: { n: 1 } })).toEqual({
      content: [{ type: 'text', text: '{"n":1}' }],
      isError: false,
    });
  });

  it('describes embedded images, resource links and unknown blocks', () => {
    const { content } = mapCallResult({
      content: [
        { type: 'resource', resource: { uri: 'x://i.png', mimeType: 'image/png', blob: 'AAAA' } },
        { type: 'resource_link', uri: 'x://doc', name: 'doc', description: 'The doc' },
        { type: 'hologram' },
      ],
    });
    expect(content).toEqual([
      { type: 'text', text: 'Resource x://i.png (image/png):' },
      { type: 'image', data: 'AAAA', mimeType: 'image/png' },
      { type: 'text', text: 'Resource link: doc <x://doc> (The doc)' },
      { type: 'text', text: '[unsupported MCP content type "hologram"]' },
    ]);
  });

  it('never gives the model an empty result', () => {
    expect(mapCallResult({})).toEqual({ content: [{ type: 'text', text: '(no output)' }], isError: false });
  });
});
