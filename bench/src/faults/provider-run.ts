import { anthropic } from '@rxagent/anthropic';
import { openai } from '@rxagent/openai';
import { runAgent, withState, type AgentEvent, type AgentState, type ChatModel } from '@rxagent/core';
import { startSseTestServer, type SseScript, type SseTestServer } from '@rxagent/testing';
import type { Provider } from './provider-faults.js';

/** A local server answering each request with the next queued script. */
export interface QueueServer {
  server: SseTestServer;
  /** Scripts for the next requests, in order; an empty queue answers 500. */
  queue: SseScript[];
}

/**
 * Starts the SSE test server on 127.0.0.1 with a queue of scripts.
 *
 * @example
 * const { server, queue } = await startQueueServer();
 * queue.push(faultScript('openai', '429'), successScript('openai'));
 */
export async function startQueueServer(): Promise<QueueServer> {
  const queue: SseScript[] = [];
  const server = await startSseTestServer(
    () => queue.shift() ?? { status: 500, json: { error: { message: 'no script queued for this request' } } },
  );
  return { server, queue };
}

/**
 * Idle timeout of the adapters under fault: short, so a stall costs little real time, yet long
 * enough that a loaded machine (CI on two cores) does not stall a healthy stream.
 *
 * @example
 * openai('gpt-test', { apiKey, baseURL, idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS });
 */
export const FAULT_IDLE_TIMEOUT_MS = 400;

/**
 * The real adapter for `provider`, pointed at the local server.
 *
 * @example
 * const model = adapterFor('anthropic', server, 'sk-test-SECRET-123');
 */
export function adapterFor(provider: Provider, server: SseTestServer, apiKey: string): ChatModel {
  return provider === 'openai'
    ? openai('gpt-test', {
        apiKey,
        baseURL: `${server.url}/v1`,
        api: 'chat',
        idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS,
      })
    : anthropic('claude-test', { apiKey, baseURL: server.url, idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS });
}

/** How a run through an adapter ended. */
export interface AdapterRun {
  events: AgentEvent[];
  error?: unknown;
  completed: boolean;
  state: AgentState;
  /** Requests the server received during the run. */
  requests: number;
}

/**
 * Runs `runAgent` on `model` to its end (real time) with fast retries.
 *
 * @example
 * const run = await runThroughAdapter(model, server, 3);
 */
export async function runThroughAdapter(
  model: ChatModel,
  server: SseTestServer,
  maxRetries: number,
): Promise<AdapterRun> {
  const before = server.requests.length;
  const { events$, state$ } = withState(
    runAgent({
      model,
      prompt: 'hi',
      maxRetries,
      retryBackoff: { initialDelayMs: 1, jitter: 0, maxDelayMs: 50 },
    }),
  );
  const events: AgentEvent[] = [];
  let error: unknown;
  let completed = false;
  await new Promise<void>((resolve) => {
    events$.subscribe({
      next: (e) => events.push(e),
      error: (e: unknown) => {
        error = e;
        resolve();
      },
      complete: () => {
        completed = true;
        resolve();
      },
    });
  });
  return { events, error, completed, state: state$.value, requests: server.requests.length - before };
}
