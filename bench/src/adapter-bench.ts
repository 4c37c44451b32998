import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { lastValueFrom, tap, type Observable } from 'rxjs';
import { anthropic } from '@rxagent/anthropic';
import { runAgent, type ChatModel, type ModelEvent } from '@rxagent/core';
import { openai } from '@rxagent/openai';
import { startSseTestServer, type SseTestServer } from '@rxagent/testing';
import { elapsedMsAsync, median, type MeasureOptions } from './measure.js';
import { anthropicSseBody, openAIChatSseBody } from './models/sse-bodies.js';

const API_KEY = 'sk-bench-not-a-real-key';

/** Milliseconds to read one stream of `deltas` text deltas, per client, medians. */
export interface AdapterResult {
  provider: 'openai' | 'anthropic';
  deltas: number;
  rawSdkMs: number;
  adapterMs: number;
  /** The adapter driven by `runAgent` (one model call, no tools). */
  runAgentMs: number;
  /** Median of adapter / raw SDK, each pair measured back to back (drift cancels out). */
  adapterRatio: number;
  /** Median of runAgent / raw SDK, measured the same way. */
  runAgentRatio: number;
}

function check(label: string, seen: number, expected: number): void {
  if (seen !== expected) throw new Error(`${label}: read ${seen} text deltas, expected ${expected}.`);
}

async function countModelDeltas(stream$: Observable<ModelEvent>): Promise<number> {
  let seen = 0;
  await lastValueFrom(stream$.pipe(tap((e) => (e.type === 'text-delta' ? seen++ : undefined))));
  return seen;
}

async function countRunDeltas(model: ChatModel): Promise<number> {
  let seen = 0;
  const run$ = runAgent({ model, prompt: 'bench', maxRetries: 0 });
  await lastValueFrom(run$.pipe(tap((e) => (e.type === 'message-update' ? seen++ : undefined))));
  return seen;
}

async function measureThree(
  provider: AdapterResult['provider'],
  deltas: number,
  raw: () => Promise<number>,
  model: ChatModel,
  options: MeasureOptions = {},
): Promise<AdapterResult> {
  const request = { messages: [{ role: 'user' as const, content: 'bench', timestamp: 0 }] };
  const timed = async (label: string, read: () => Promise<number>) => {
    let seen = 0;
    const ms = await elapsedMsAsync(async () => (seen = await read()));
    check(label, seen, deltas);
    return ms;
  };
  // Rounds of raw SDK, adapter, runAgent back to back: the machine's speed drifts between
  // rounds, so each round's ratios are taken before the medians.
  const round = async () => {
    const rawMs = await timed(`${provider} SDK`, raw);
    const adapterMs = await timed(`${provider} adapter`, () => countModelDeltas(model.stream(request)));
    const runMs = await timed(`${provider} runAgent`, () => countRunDeltas(model));
    return { rawMs, adapterMs, runMs };
  };
  const warmupEnd = performance.now() + (options.warmupMs ?? 300);
  for (let i = 0; i < 200 && (i < (options.warmup ?? 3) || performance.now() < warmupEnd); i++) await round();
  const rounds = [];
  for (let i = 0; i < Math.max(1, options.runs ?? 15); i++) rounds.push(await round());
  return {
    provider,
    deltas,
    rawSdkMs: median(rounds.map((r) => r.rawMs)),
    adapterMs: median(rounds.map((r) => r.adapterMs)),
    runAgentMs: median(rounds.map((r) => r.runMs)),
    adapterRatio: median(rounds.map((r) => r.adapterMs / r.rawMs)),
    runAgentRatio: median(rounds.map((r) => r.runMs / r.rawMs)),
  };
}

async function withServer<T>(body: string, work: (server: SseTestServer) => Promise<T>): Promise<T> {
  const server = await startSseTestServer(() => ({ events: [{ raw: body }] }));
  try {
    return await work(server);
  } finally {
    await server.close();
  }
}

/**
 * The OpenAI Chat Completions adapter against the raw `openai` SDK reading the same
 * `deltas`-chunk stream from a local SSE server (one write of the whole body, so the server
 * costs next to nothing).
 *
 * @example
 * const { rawSdkMs, adapterMs } = await benchOpenAIAdapter(5000);
 */
export function benchOpenAIAdapter(deltas: number, options?: MeasureOptions): Promise<AdapterResult> {
  return withServer(openAIChatSseBody(deltas), (server) => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: API_KEY, maxRetries: 0 });
    const raw = async () => {
      let seen = 0;
      const stream = await client.chat.completions.create({
        model: 'gpt-bench',
        messages: [{ role: 'user', content: 'bench' }],
        stream: true,
      });
      for await (const chunk of stream) if (chunk.choices[0]?.delta.content) seen++;
      return seen;
    };
    const model = openai('gpt-bench', { apiKey: API_KEY, baseURL: `${server.url}/v1`, api: 'chat' });
    return measureThree('openai', deltas, raw, model, options);
  });
}

/**
 * The Anthropic adapter against the raw `@anthropic-ai/sdk` reading the same stream.
 *
 * @example
 * const { rawSdkMs, adapterMs } = await benchAnthropicAdapter(5000);
 */
export function benchAnthropicAdapter(deltas: number, options?: MeasureOptions): Promise<AdapterResult> {
  return withServer(anthropicSseBody(deltas), (server) => {
    const client = new Anthropic({ baseURL: server.url, apiKey: API_KEY, maxRetries: 0 });
    const raw = async () => {
      let seen = 0;
      const stream = await client.messages.create({
        model: 'claude-bench',
        max_tokens: 1024,
        messages: [{ role: 'user', content: 'bench' }],
        stream: true,
      });
      for await (const event of stream) {
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') seen++;
      }
      return seen;
    };
    const model = anthropic('claude-bench', { apiKey: API_KEY, baseURL: server.url });
    return measureThree('anthropic', deltas, raw, model, options);
  });
}
