// Shared helpers of the specs. The `.test.ts` suffix keeps this file out of dist (the build
// excludes test files) while jest, which only runs `*.spec.ts`, does not run it as a suite.
import { join } from 'node:path';
import { lastValueFrom, toArray, type Observable } from 'rxjs';
import type { ModelEvent } from '@rxagent/core';
import {
  recordedStream,
  startSseTestServer,
  type SseEvent,
  type SseScript,
  type SseTestServer,
} from '@rxagent/testing';
import { google } from '../google.js';
import type { GoogleChatModel } from '../google-chat-model.js';
import type { GoogleOptions } from '../google-options.js';

export const MODEL = 'gemini-test';
export const API_KEY = 'AIzaSy-test-secret-key-0123456789';

/** A model pointed at the local server (Gemini API, key auth). */
export function testModel(server: SseTestServer, options: GoogleOptions = {}): GoogleChatModel {
  return google(MODEL, { apiKey: API_KEY, baseURL: server.url, ...options });
}

/** Starts a server answering request `i` with `scripts[i]` (the last one repeats). */
export function scriptedServer(...scripts: SseScript[]): Promise<SseTestServer> {
  return startSseTestServer((_request, index) => scripts[Math.min(index, scripts.length - 1)]!);
}

/** A recorded stream from this package's `__fixtures__`. */
export const recorded = (file: string): SseEvent[] =>
  recordedStream(join(__dirname, '..', '__fixtures__', file));

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

/** The `finish` event of a list of events. */
export function finishOf(events: ModelEvent[]): Extract<ModelEvent, { type: 'finish' }> {
  const finish = events.find((e) => e.type === 'finish');
  if (finish?.type !== 'finish') throw new Error('no finish event');
  return finish;
}

export const USAGE = {
  promptTokenCount: 20,
  candidatesTokenCount: 8,
  totalTokenCount: 40,
  cachedContentTokenCount: 5,
  thoughtsTokenCount: 12,
};

/** One streamed chunk: candidate 0 with `parts`, optionally its finish reason, and usage. */
export function chunk(
  parts: Record<string, unknown>[],
  finishReason?: string,
  extra: Record<string, unknown> = {},
): SseEvent {
  return {
    data: {
      candidates: [
        { content: { role: 'model', parts }, index: 0, ...(finishReason && { finishReason }), ...extra },
      ],
      usageMetadata: finishReason ? USAGE : { promptTokenCount: 20, totalTokenCount: 20 },
      modelVersion: 'gemini-test-001',
      responseId: 'resp-test-1',
    },
  };
}

/** A complete text answer in pieces. */
export function textStream(pieces: string[], finishReason = 'STOP'): SseEvent[] {
  return pieces.map((text, i) => chunk([{ text }], i === pieces.length - 1 ? finishReason : undefined));
}

/** The request body the server received (the SDK's wire shape). */
export function bodyOf(server: SseTestServer, index = 0): Record<string, unknown> {
  return server.requests[index]!.body as Record<string, unknown>;
}

/** `{ messages: [user 'Hi'] }`. */
export const hi = { messages: [{ role: 'user' as const, content: 'Hi', timestamp: 0 }] };
