import { anthropic } from '@rxagent/anthropic';
import { openai } from '@rxagent/openai';
import { runAgent, withState, type AgentEvent, type AgentState, type ChatModel } from '@rxagent/core';
import { startSseTestServer, type SseScript, type SseTestServer } from '@rxagent/testing';
import { VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import type { Provider } from './provider-faults.js';

/** A local server answering each request with the next queued script. */
export interface QueueServer {
  server: SseTestServer;
  /** Scripts for the next requests, in order; an empty queue answers 500. */
  queue: SseScript[];
  /**
   * The adapters' clock (give it to `adapterFor`): it moves only while a stalled script holds a
   * request, so their timeouts fire then and never on a healthy stream, however busy the machine.
   */
  clock: VirtualTimeScheduler;
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
  const clock = new VirtualTimeScheduler();
  const server = await startSseTestServer((recorded) => {
    const script = queue.shift() ?? {
      status: 500,
      json: { error: { message: 'no script queued for this request' } },
    };
    if (script.after !== 'stall') return script;
    // Stalled: the client's idle (or head) timeout is due now, on its clock, until it gives up.
    const stalled = { wait: () => advanceUntil(clock, recorded.closedByClient) };
    return { ...script, events: [...(script.events ?? []), stalled] };
  });
  return { server, queue, clock };
}

/** Runs every timer due on `clock`, again and again, until `closed` (the client left). */
async function advanceUntil(clock: VirtualTimeScheduler, closed: Promise<void>): Promise<void> {
  let done = false;
  void closed.then(() => (done = true));
  while (!done) {
    clock.flush();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Idle timeout of the adapters under fault, on the queue server's clock (virtual: it fires only
 * while a script stalls).
 *
 * @example
 * openai('gpt-test', { apiKey, baseURL, idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS });
 */
export const FAULT_IDLE_TIMEOUT_MS = 400;

/**
 * The real adapter for `provider`, pointed at the local server.
 *
 * @example
 * const model = adapterFor('anthropic', queued.server, 'sk-test-SECRET-123', queued.clock);
 */
export function adapterFor(
  provider: Provider,
  server: SseTestServer,
  apiKey: string,
  scheduler: SchedulerLike,
): ChatModel {
  return provider === 'openai'
    ? openai('gpt-test', {
        apiKey,
        baseURL: `${server.url}/v1`,
        api: 'chat',
        idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS,
        scheduler,
      })
    : anthropic('claude-test', {
        apiKey,
        baseURL: server.url,
        idleTimeoutMs: FAULT_IDLE_TIMEOUT_MS,
        scheduler,
      });
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
