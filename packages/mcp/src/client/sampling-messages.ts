import { emptyUsage, type ImagePart, type Message, type TextPart } from '@rxagent/core';
import { ErrorCode, McpError, type SamplingMessage } from '@modelcontextprotocol/sdk/types.js';

type Block = { type: string; text?: string; data?: string; mimeType?: string };

function parts(content: SamplingMessage['content']): (TextPart | ImagePart)[] {
  const blocks = (Array.isArray(content) ? content : [content]) as Block[];
  return blocks.map((block): TextPart | ImagePart => {
    if (block.type === 'text') return { type: 'text', text: block.text ?? '' };
    if (block.type === 'image')
      return {
        type: 'image',
        data: block.data ?? '',
        ...(block.mimeType ? { mimeType: block.mimeType } : {}),
      };
    if (block.type === 'audio')
      return { type: 'text', text: `[audio${block.mimeType ? ` ${block.mimeType}` : ''}: not shown]` };
    // Tool use in sampling needs the client's sampling.tools capability, which rxagent does not declare.
    throw new McpError(ErrorCode.InvalidParams, `Sampling content of type "${block.type}" is not supported.`);
  });
}

/**
 * A sampling request's messages as rxagent messages for a model: user messages with text and
 * images; assistant messages with their text (an image an assistant cannot carry is
 * described). Audio is described; tool use is refused (not declared).
 *
 * @example
 * samplingMessages([{ role: 'user', content: { type: 'text', text: 'Hi' } }], 'docs', 0);
 */
export function samplingMessages(
  messages: readonly SamplingMessage[],
  server: string,
  timestamp: number,
): Message[] {
  return messages.map((message): Message => {
    const content = parts(message.content);
    if (message.role === 'user') return { role: 'user', content, timestamp };
    return {
      role: 'assistant',
      content: content.map((p) =>
        p.type === 'text'
          ? p
          : { type: 'text', text: `[image${p.mimeType ? ` ${p.mimeType}` : ''}: not shown]` },
      ),
      stopReason: 'stop',
      usage: emptyUsage(),
      provider: 'mcp',
      model: server,
      timestamp,
    };
  });
}
