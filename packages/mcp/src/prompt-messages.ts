import { emptyUsage, type AgentMessage, type ImagePart, type TextPart } from '@rxagent/core';
import { asyncScheduler, type SchedulerLike } from 'rxjs';
import type { McpConnection } from './mcp-connection.js';
import { contentParts } from './map-content.js';
import { liveClient } from './read-resource.js';

/**
 * Options of `mcpPromptMessages`.
 *
 * @example
 * const options: McpPromptOptions = { scheduler: asyncScheduler, signal: controller.signal };
 */
export interface McpPromptOptions {
  /** Where the messages' timestamps come from (default `asyncScheduler`): the run's scheduler. */
  scheduler?: SchedulerLike;
  signal?: AbortSignal;
}

/**
 * Gets an MCP prompt (`prompts/get`) with its arguments and turns it into rxagent messages for
 * a transcript: user messages with text and images; assistant messages with their text
 * (images an assistant cannot carry are described). Rejects like `readMcpResource`.
 *
 * @example
 * const messages = await mcpPromptMessages(connection, 'simple-prompt');
 * const agent = new Agent({ model, messages });
 */
export async function mcpPromptMessages(
  connection: McpConnection,
  name: string,
  args: Record<string, string> = {},
  options: McpPromptOptions = {},
): Promise<AgentMessage[]> {
  const result = await liveClient(connection).getPrompt(
    { name, arguments: args },
    options.signal ? { signal: options.signal } : {},
  );
  const timestamp = (options.scheduler ?? asyncScheduler).now();
  return result.messages.map((message): AgentMessage => {
    const parts = contentParts(message.content);
    if (message.role === 'user') return { role: 'user', content: parts, timestamp };
    const text: TextPart[] = parts.map((p: TextPart | ImagePart) =>
      p.type === 'text'
        ? p
        : { type: 'text', text: `[image${p.mimeType ? ` ${p.mimeType}` : ''}: not shown]` },
    );
    return {
      role: 'assistant',
      content: text,
      stopReason: 'stop',
      usage: emptyUsage(),
      provider: 'mcp',
      model: connection.name,
      timestamp,
    };
  });
}
