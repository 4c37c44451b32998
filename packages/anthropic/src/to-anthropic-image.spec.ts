import { toAnthropicImage } from './to-anthropic-image.js';

describe('toAnthropicImage', () => {
  it('sends inline data as base64 with its mime type', () => {
    expect(toAnthropicImage({ type: 'image', data: 'AAAA', mimeType: 'image/webp' })).toEqual({
      type: 'image',
      source: { type: 'base64', media_type: 'image/webp', data: 'AAAA' },
    });
  });

  it('guesses the media type from the data when none is given', () => {
    expect(toAnthropicImage({ type: 'image', data: '/9j/4AAQ' })?.source).toMatchObject({
      media_type: 'image/jpeg',
    });
    expect(toAnthropicImage({ type: 'image', data: 'AAAA' })?.source).toMatchObject({
      media_type: 'image/png',
    });
  });

  it('unpacks a data URL and passes any other URL as a url source', () => {
    expect(toAnthropicImage({ type: 'image', url: 'data:image/gif;base64,R0lGOD' })?.source).toEqual({
      type: 'base64',
      media_type: 'image/gif',
      data: 'R0lGOD',
    });
    expect(toAnthropicImage({ type: 'image', url: 'https://x.test/a.png' })?.source).toEqual({
      type: 'url',
      url: 'https://x.test/a.png',
    });
  });

  it('gives nothing for an image without data or URL', () => {
    expect(toAnthropicImage({ type: 'image' })).toBeUndefined();
  });
});
