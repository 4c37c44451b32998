// Shared helpers of the specs. The `.test.ts` suffix keeps this file out of dist (the build
// excludes test files) while jest, which only runs `*.spec.ts`, does not run it as a suite.
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { ChatModel, ModelEvent, Usage } from '@rxagent/core';
import {
  startSseTestServer,
  type SseEvent,
  type SseScript,
  type SseStep,
  type SseTestServer,
} from '@rxagent/testing';
import { openai } from '../openai.js';
import type { OpenAIOptions } from '../openai-options.js';

export const MODEL = 'gpt-test';
export const SERVED_MODEL = 'gpt-test-2026-01-01';
export const API_KEY = 'sk-test-secret-key-123';

/** A model pointed at the local server. */
export function testModel(server: SseTestServer, options: OpenAIOptions = {}): ChatModel {
  return openai(MODEL, { apiKey: API_KEY, baseURL: `${server.url}/v1`, ...options });
}

/** Starts a server answering request `i` with `scripts[i]` (the last one repeats). */
export function scriptedServer(...scripts: SseScript[]): Promise<SseTestServer> {
  return startSseTestServer((_request, index) => scripts[Math.min(index, scripts.length - 1)]!);
}

/** All events of a model stream (rejects with its error). */
export function collect(stream$: Observable<ModelEvent>): Promise<ModelEvent[]> {
  return lastValueFrom(stream$.pipe(toArray()));
}

/** The error a stream fails with (fails the test when it completes). */
export async function streamError(stream$: Observable<unknown>): Promise<unknown> {
  try {
    await lastValueFrom(stream$.pipe(toArray()));
  } catch (error) {
    return error;
  }
  throw new Error('expected the stream to fail, it completed');
}

/**
 * A gate a server step waits on (`{ until: gate.opened }`) until the test has seen, on the
 * client, the event it needs: a stream is cut or stalled after the client read what was sent,
 * whatever the machine's load, never after a guessed delay.
 */
export function gate(): { opened: Promise<void>; open(): void } {
  let open = (): void => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Resolves on the first turn of the event loop where `condition()` holds (no fixed delay). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** The `finish` event of a list of events. */
export function finishOf(events: ModelEvent[]): Extract<ModelEvent, { type: 'finish' }> {
  const finish = events.find((e) => e.type === 'finish');
  if (finish?.type !== 'finish') throw new Error('no finish event');
  return finish;
}

// ---- Chat Completions wire events ----

/** One `chat.completion.chunk` carrying `delta` for choice 0. */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: SERVED_MODEL,
      system_fingerprint: 'fp_x',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      usage: null,
    },
  };
}

/** A tool-call fragment for `delta.tool_calls`. */
export function callFragment(index: number, args: string, start?: { id: string; name: string }) {
  return start
    ? { index, id: start.id, type: 'function', function: { name: start.name, arguments: args } }
    : { index, function: { arguments: args } };
}

export const CHAT_USAGE = {
  prompt_tokens: 14,
  completion_tokens: 6,
  total_tokens: 20,
  prompt_tokens_details: { cached_tokens: 4, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 2, audio_tokens: 0 },
};

export const EXPECTED_CHAT_USAGE: Usage = {
  inputTokens: 14,
  outputTokens: 6,
  cacheReadTokens: 4,
  cacheWriteTokens: 0,
  totalTokens: 20,
  reasoningTokens: 2,
};

/** The usage chunk (empty choices) that follows the finish chunk. */
export function chatUsageChunk(usage: Record<string, unknown> = CHAT_USAGE): SseEvent {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1,
      model: SERVED_MODEL,
      choices: [],
      usage,
    },
  };
}

export const CHAT_DONE: SseEvent = { data: '[DONE]' };

/** A complete chat stream: role chunk, the text pieces, finish, usage, [DONE]. */
export function chatText(pieces: string[], finishReason = 'stop'): SseStep[] {
  return [
    chatChunk({ role: 'assistant', content: '', refusal: null }),
    ...pieces.map((content) => chatChunk({ content })),
    chatChunk({}, finishReason),
    chatUsageChunk(),
    CHAT_DONE,
  ];
}

/** A complete chat stream of tool calls (each call's arguments given as pieces). */
export function chatToolCalls(calls: { id: string; name: string; pieces: string[] }[]): SseStep[] {
  return [
    chatChunk({ role: 'assistant', content: null }),
    ...calls.flatMap((call, index) => [
      chatChunk({ tool_calls: [callFragment(index, '', call)] }),
      ...call.pieces.map((piece) => chatChunk({ tool_calls: [callFragment(index, piece)] })),
    ]),
    chatChunk({}, 'tool_calls'),
    chatUsageChunk(),
    CHAT_DONE,
  ];
}

// ---- Responses API wire events ----

let sequence = 0;

/** One Responses API event (`event:` line and `type`/`sequence_number` in the data). */
export function responsesEvent(type: string, payload: Record<string, unknown> = {}): SseEvent {
  return { event: type, data: { type, sequence_number: sequence++, ...payload } };
}

export const RESPONSES_USAGE = {
  input_tokens: 30,
  input_tokens_details: { cached_tokens: 10 },
  output_tokens: 8,
  output_tokens_details: { reasoning_tokens: 3 },
  total_tokens: 38,
};

export const EXPECTED_RESPONSES_USAGE: Usage = {
  inputTokens: 30,
  outputTokens: 8,
  cacheReadTokens: 10,
  cacheWriteTokens: 0,
  totalTokens: 38,
  reasoningTokens: 3,
};

/** A Response object in the given status. */
export function responseObject(status: string, extra: Record<string, unknown> = {}) {
  return { id: 'resp_1', object: 'response', status, model: SERVED_MODEL, output: [], usage: null, ...extra };
}

export const RESPONSES_START: SseEvent[] = [
  responsesEvent('response.created', { response: responseObject('in_progress') }),
  responsesEvent('response.in_progress', { response: responseObject('in_progress') }),
];

/** `response.completed` with usage. */
export function responsesCompleted(usage: Record<string, unknown> | null = RESPONSES_USAGE): SseEvent {
  return responsesEvent('response.completed', { response: responseObject('completed', { usage }) });
}

/** A message item at `outputIndex` streaming the text pieces. */
export function responsesMessage(outputIndex: number, pieces: string[]): SseEvent[] {
  const ids = { item_id: `msg_${outputIndex}`, output_index: outputIndex, content_index: 0 };
  const item = { id: ids.item_id, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
  return [
    responsesEvent('response.output_item.added', { output_index: outputIndex, item }),
    responsesEvent('response.content_part.added', { ...ids, part: { type: 'output_text', text: '' } }),
    ...pieces.map((delta) => responsesEvent('response.output_text.delta', { ...ids, delta, logprobs: [] })),
    responsesEvent('response.output_text.done', { ...ids, text: pieces.join('') }),
    responsesEvent('response.output_item.done', {
      output_index: outputIndex,
      item: { ...item, status: 'completed' },
    }),
  ];
}

/** A function_call item at `outputIndex` streaming its argument pieces. */
export function responsesCall(
  outputIndex: number,
  call: { id: string; name: string; pieces: string[] },
): SseEvent[] {
  const itemId = `fc_${outputIndex}`;
  const item = {
    id: itemId,
    type: 'function_call',
    status: 'in_progress',
    arguments: '',
    call_id: call.id,
    name: call.name,
  };
  const args = call.pieces.join('');
  return [
    responsesEvent('response.output_item.added', { output_index: outputIndex, item }),
    ...call.pieces.map((delta) =>
      responsesEvent('response.function_call_arguments.delta', {
        item_id: itemId,
        output_index: outputIndex,
        delta,
      }),
    ),
    responsesEvent('response.function_call_arguments.done', {
      item_id: itemId,
      output_index: outputIndex,
      name: call.name,
      arguments: args,
    }),
    responsesEvent('response.output_item.done', {
      output_index: outputIndex,
      item: { ...item, status: 'completed', arguments: args },
    }),
  ];
}
