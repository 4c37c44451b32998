// Shared fixtures of the specs. The `.test.ts` suffix keeps this file out of the build
// (tsconfig.build.json excludes it) without jest running it as a suite (jest runs `*.spec.ts`).
import type { ModelEvent } from '@rxagent/core';
import {
  startSseTestServer,
  type RecordedRequest,
  type SseEvent,
  type SseScript,
  type SseTestServer,
} from '@rxagent/testing';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import { anthropic, type AnthropicOptions } from './anthropic.js';
import type { AnthropicChatModel } from './anthropic-chat-model.js';

/** A key that looks real enough to be redacted. */
export const TEST_API_KEY = 'sk-ant-test-key-0123456789';

/** One Anthropic SSE event, with its `event:` line (the SDK drops events without one). */
export function sse(type: string, fields: Record<string, unknown> = {}): SseEvent {
  return { event: type, data: { type, ...fields } };
}

export function messageStart(
  usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 },
): SseEvent {
  return sse('message_start', {
    message: {
      id: 'msg_test_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-test-20990101',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage,
    },
  });
}

export function textBlock(index: number, ...pieces: string[]): SseEvent[] {
  return [
    sse('content_block_start', { index, content_block: { type: 'text', text: '' } }),
    ...pieces.map((text) => sse('content_block_delta', { index, delta: { type: 'text_delta', text } })),
    sse('content_block_stop', { index }),
  ];
}

export function thinkingBlock(index: number, pieces: string[], signature: string): SseEvent[] {
  return [
    sse('content_block_start', { index, content_block: { type: 'thinking', thinking: '', signature: '' } }),
    ...pieces.map((thinking) =>
      sse('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }),
    ),
    sse('content_block_delta', { index, delta: { type: 'signature_delta', signature } }),
    sse('content_block_stop', { index }),
  ];
}

/** A `tool_use` block; `pieces` are the `input_json_delta` fragments (none: no delta at all). */
export function toolUseBlock(
  index: number,
  id: string,
  name: string,
  pieces: string[],
  stop = true,
): SseEvent[] {
  return [
    sse('content_block_start', { index, content_block: { type: 'tool_use', id, name, input: {} } }),
    ...pieces.map((partial_json) =>
      sse('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
    ),
    ...(stop ? [sse('content_block_stop', { index })] : []),
  ];
}

export function messageEnd(
  stopReason: string,
  usage: Record<string, unknown> = { output_tokens: 5 },
): SseEvent[] {
  return [
    sse('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage }),
    sse('message_stop'),
  ];
}

/** A whole successful response: message_start, the blocks, message_delta, message_stop. */
export function turn(blocks: SseEvent[], stopReason = 'end_turn'): SseScript {
  return { events: [messageStart(), ...blocks, ...messageEnd(stopReason)] };
}

/** A local server and a model pointed at it, closed after `fn`. */
export async function withServer<T>(
  handler: (request: RecordedRequest, index: number) => SseScript | Promise<SseScript>,
  fn: (model: AnthropicChatModel, server: SseTestServer) => Promise<T>,
  options: AnthropicOptions = {},
): Promise<T> {
  const server = await startSseTestServer(handler);
  try {
    return await fn(
      anthropic('claude-test', { apiKey: TEST_API_KEY, baseURL: server.url, ...options }),
      server,
    );
  } finally {
    await server.close();
  }
}

/**
 * A gate a server step waits on (`{ until: gate.opened }`) until the test has seen, on the
 * client, the event it needs: a stream is cut after the client read what was sent, whatever
 * the machine's load, never after a guessed delay.
 */
export function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

export function collect(events$: Observable<ModelEvent>): Promise<ModelEvent[]> {
  return lastValueFrom(events$.pipe(toArray()));
}

/** The error a stream fails with (fails the test if it completes). */
export async function failure(events$: Observable<ModelEvent>): Promise<unknown> {
  try {
    await collect(events$);
  } catch (error) {
    return error;
  }
  throw new Error('The stream completed; an error was expected.');
}
