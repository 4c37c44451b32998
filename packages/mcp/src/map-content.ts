import type { ImagePart, TextPart } from '@rxagent/core';

type Part = TextPart | ImagePart;

interface ResourceContents {
  uri: string;
  mimeType?: string;
  text?: string;
  blob?: string;
}

/** A content block of an MCP result, loosely typed: servers send what they send. */
export interface McpContentBlock {
  type: string;
  text?: string;
  data?: string;
  mimeType?: string;
  uri?: string;
  name?: string;
  title?: string;
  description?: string;
  resource?: ResourceContents;
}

const text = (value: string): TextPart => ({ type: 'text', text: value });

/** Roughly how many bytes a base64 string holds, to describe what the model cannot see. */
function base64Bytes(data: string): number {
  return Math.floor((data.length * 3) / 4) - (data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0);
}

/** Contents of a resource (read, or embedded in a result) as parts the model reads. */
export function resourceParts(resource: ResourceContents): Part[] {
  const kind = resource.mimeType ? ` (${resource.mimeType})` : '';
  if (typeof resource.text === 'string') {
    return [text(`Resource ${resource.uri}${kind}:\n${resource.text}`)];
  }
  if (typeof resource.blob === 'string') {
    if (resource.mimeType?.startsWith('image/')) {
      return [
        text(`Resource ${resource.uri}${kind}:`),
        { type: 'image', data: resource.blob, mimeType: resource.mimeType },
      ];
    }
    return [text(`Resource ${resource.uri}${kind}: binary, ${base64Bytes(resource.blob)} bytes, not shown.`)];
  }
  return [text(`Resource ${resource.uri}${kind}: no contents.`)];
}

/**
 * One MCP content block as rxagent parts. Text and images as they are; audio, which no
 * provider takes in a tool result, as a line saying what it was; resource links as a line with
 * their URI; embedded resources as their text (or image).
 */
export function contentParts(block: McpContentBlock): Part[] {
  switch (block.type) {
    case 'text':
      return [text(block.text ?? '')];
    case 'image':
      return [
        { type: 'image', data: block.data ?? '', ...(block.mimeType ? { mimeType: block.mimeType } : {}) },
      ];
    case 'audio':
      return [
        text(
          `[audio${block.mimeType ? ` ${block.mimeType}` : ''}, ${base64Bytes(block.data ?? '')} bytes: not shown]`,
        ),
      ];
    case 'resource_link': {
      const label = block.title ?? block.name ?? block.uri ?? '';
      const details = [block.mimeType, block.description].filter(Boolean).join(', ');
      return [text(`Resource link: ${label} <${block.uri ?? ''}>${details ? ` (${details})` : ''}`)];
    }
    case 'resource':
      return block.resource ? resourceParts(block.resource) : [text('Resource: no contents.')];
    default:
      return [text(`[unsupported MCP content type ${JSON.stringify(block.type)}]`)];
  }
}
