/**
 * The chunks of the Vercel AI SDK's UI message stream (protocol v1, AI SDK 5 to 7) that rxagent
 * writes: what `readUIMessageStream` and `useChat` read. Written from the protocol, so rxagent
 * does not depend on the `ai` package.
 *
 * @example
 * const chunk: UIMessageChunk = { type: 'text-delta', id: '1-0', delta: 'Hel' };
 */
export type UIMessageChunk =
  | { type: 'start'; messageId?: string }
  | { type: 'start-step' }
  | { type: 'finish-step' }
  | { type: 'reset-step' }
  | { type: 'text-start'; id: string }
  | { type: 'text-delta'; id: string; delta: string }
  | { type: 'text-end'; id: string }
  | { type: 'reasoning-start'; id: string }
  | { type: 'reasoning-delta'; id: string; delta: string }
  | { type: 'reasoning-end'; id: string }
  | { type: 'tool-input-available'; toolCallId: string; toolName: string; input: unknown }
  | { type: 'tool-input-error'; toolCallId: string; toolName: string; input: unknown; errorText: string }
  | { type: 'tool-approval-request'; approvalId: string; toolCallId: string }
  | { type: 'tool-approval-response'; approvalId: string; approved: boolean; reason?: string }
  | {
      type: 'tool-output-available';
      toolCallId: string;
      output: unknown;
      toolMetadata?: Record<string, string>;
    }
  | {
      type: 'tool-output-error';
      toolCallId: string;
      errorText: string;
      toolMetadata?: Record<string, string>;
    }
  | { type: 'tool-output-denied'; toolCallId: string }
  | { type: `data-${string}`; id?: string; data: unknown; transient?: boolean }
  | { type: 'error'; errorText: string }
  | {
      type: 'finish';
      finishReason?: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';
      messageMetadata?: unknown;
    };

/**
 * The response headers of a UI message stream (what `useChat`'s default transport expects).
 *
 * @example
 * new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
 */
export const UI_MESSAGE_STREAM_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-vercel-ai-ui-message-stream': 'v1',
  'x-accel-buffering': 'no',
};
