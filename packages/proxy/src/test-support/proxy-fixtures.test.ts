// Shared helpers of the proxy specs (`.test.ts`: left out of dist, not a jest suite).
import { build } from 'esbuild';
import path from 'node:path';
import type { SseEvent, SseScript, SseStep } from '@rxagent/testing';

export const UPSTREAM_KEY = 'sk-upstream-secret-key-4242';
export const PROXY_TOKEN = 'proxy-token-7d1f0c';
export const SERVED_MODEL = 'gpt-test-2026-01-01';

const REPO = path.resolve(__dirname, '..', '..', '..', '..');

/** One Chat Completions chunk for choice 0. */
export function chatChunk(delta: Record<string, unknown>, finishReason: string | null = null): SseEvent {
  return {
    data: {
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1767225600,
      model: SERVED_MODEL,
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    },
  };
}

const usageChunk: SseEvent = {
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1767225600,
    model: SERVED_MODEL,
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
  },
};

/** A complete text answer streamed in pieces. */
export function chatText(pieces: string[]): SseScript {
  const events: SseStep[] = [
    chatChunk({ role: 'assistant', content: '' }),
    ...pieces.map((content) => chatChunk({ content })),
    chatChunk({}, 'stop'),
    usageChunk,
    { data: '[DONE]' },
  ];
  return { events };
}

/** A tool call answer. */
export function chatToolCall(id: string, name: string, args: string): SseScript {
  return {
    events: [
      chatChunk({
        role: 'assistant',
        content: null,
        tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: args } }],
      }),
      chatChunk({}, 'tool_calls'),
      usageChunk,
      { data: '[DONE]' },
    ],
  };
}

/**
 * Bundles a TypeScript entry of this repository (workspace imports resolved to the sources,
 * as jest does) into one JavaScript file's text.
 */
export async function bundle(entry: string, platform: 'node' | 'browser'): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    platform,
    format: platform === 'node' ? 'cjs' : 'iife',
    target: platform === 'node' ? 'node20' : 'chrome120',
    tsconfig: path.join(REPO, 'tsconfig.json'),
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
