import type { Base64ImageSource, ImageBlockParam } from '@anthropic-ai/sdk/resources/messages';
import type { ImagePart } from '@rxagent/core';

type MediaType = Base64ImageSource['media_type'];

/** Base64 prefixes of the formats Anthropic accepts, for images sent without a mime type. */
const MAGIC: [string, MediaType][] = [
  ['iVBOR', 'image/png'],
  ['/9j/', 'image/jpeg'],
  ['R0lG', 'image/gif'],
  ['UklG', 'image/webp'],
];

/**
 * An image part as an Anthropic image block: inline data as a `base64` source (a `data:` URL
 * is unpacked to one), any other URL as a `url` source. The media type is the part's
 * `mimeType`, else guessed from the data's first bytes, else PNG. Undefined when the part has
 * neither data nor URL.
 *
 * @example
 * toAnthropicImage({ type: 'image', url: 'https://example.com/cat.jpg' });
 * // { type: 'image', source: { type: 'url', url: 'https://example.com/cat.jpg' } }
 */
export function toAnthropicImage(part: ImagePart): ImageBlockParam | undefined {
  if (part.data) return base64Image(part.data, part.mimeType);
  if (!part.url) return undefined;
  const dataUrl = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(part.url);
  if (dataUrl) return base64Image(dataUrl[2] ?? '', part.mimeType ?? dataUrl[1]);
  return { type: 'image', source: { type: 'url', url: part.url } };
}

function base64Image(data: string, mimeType: string | undefined): ImageBlockParam {
  const guessed = MAGIC.find(([prefix]) => data.startsWith(prefix))?.[1];
  const mediaType = (mimeType ?? guessed ?? 'image/png') as MediaType;
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data } };
}
