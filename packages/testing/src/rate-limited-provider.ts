import { asyncScheduler, type SchedulerLike } from 'rxjs';
import { ProviderBudgets } from './provider-budgets.js';
import {
  answerEvents,
  countInputTokens,
  countOutputTokens,
  rateLimitBody,
  rateLimitHeaders,
  type FakeAnswer,
  type FakeProtocol,
} from './provider-wire.js';
import { startSseTestServer, type SseScript } from './sse-test-server.js';

/**
 * A request the fake provider received, as its `respond` sees it.
 *
 * @example
 * const respond = (request: FakeProviderRequest): FakeAnswer => ({ text: `You sent ${request.inputTokens} tokens.` });
 */
export interface FakeProviderRequest {
  protocol: FakeProtocol;
  /** 0-based, in order of arrival. */
  index: number;
  /** The request body, parsed. */
  body: unknown;
  /** The input tokens it is charged (`countInputTokens`). */
  inputTokens: number;
}

/**
 * Options of `startRateLimitedProvider`. Budgets left out are not limited.
 *
 * @example
 * const options: RateLimitedProviderOptions = { requestsPerMinute: 50, inputTokensPerMinute: 20_000, clock };
 */
export interface RateLimitedProviderOptions {
  requestsPerMinute?: number;
  inputTokensPerMinute?: number;
  outputTokensPerMinute?: number;
  /** The provider's clock: budgets refill and latency passes on it (default `asyncScheduler`). */
  clock?: SchedulerLike;
  /** The answer to each request (default: the text `OK`). */
  respond?: (request: FakeProviderRequest) => FakeAnswer | Promise<FakeAnswer>;
  /** Time on the clock between a served request's head (sent at once) and its body (default 0). */
  latencyMs?: number;
  /** Send the rate-limit headers (default true); `'garbage'` sends them with unreadable values. */
  headers?: boolean | 'garbage';
}

/**
 * One request as the fake provider handled it.
 *
 * @example
 * const throttled = provider.log.filter((entry: FakeProviderLogEntry) => entry.status === 429).length;
 */
export interface FakeProviderLogEntry {
  /** When it arrived, on the provider's clock. */
  at: number;
  protocol: FakeProtocol;
  status: 200 | 400 | 404 | 429;
  /** Input tokens charged (0 unless served). */
  inputTokens: number;
  /** Output tokens charged (0 unless served). */
  outputTokens: number;
  /** The wait a 429 asked for, in ms of the clock. */
  retryAfterMs?: number;
}

/**
 * A running fake provider.
 *
 * @example
 * const model = openai('gpt-fake', { apiKey: 'sk-fake', baseURL: provider.openaiBaseURL });
 */
export interface RateLimitedProvider {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `baseURL` for `@rxagent/openai` (Chat Completions at `/v1/chat/completions`). */
  readonly openaiBaseURL: string;
  /** `baseURL` for `@rxagent/anthropic` (Messages at `/v1/messages`). */
  readonly anthropicBaseURL: string;
  /** Every request, in order of arrival. */
  readonly log: readonly FakeProviderLogEntry[];
  /** Stops the server. */
  close(): Promise<void>;
}

const PATHS: Record<string, FakeProtocol> = {
  '/v1/chat/completions': 'openai',
  '/v1/messages': 'anthropic',
};

const wait = (clock: SchedulerLike, ms: number) =>
  new Promise<void>((resolve) => clock.schedule(() => resolve(), ms));

function garbled(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(headers).map((name) => [name, 'n/a']));
}

/**
 * Starts a fake model provider on 127.0.0.1 (a free port) that speaks OpenAI's Chat
 * Completions and Anthropic's Messages streaming protocols and enforces per-minute budgets of
 * requests, input tokens and output tokens, as the providers do: budgets refill continuously
 * on its `clock`; a request is served when one request, its input tokens (`countInputTokens`)
 * and an output token are left, and is charged its input and output tokens at once; otherwise
 * it gets a 429 with the provider's error body, `retry-after` (whole seconds) and, for OpenAI,
 * `retry-after-ms`. Every response carries the provider's rate-limit headers
 * (`x-ratelimit-*`, `anthropic-ratelimit-*`). Drive it through the real adapters with
 * `baseURL`; give it an `acceleratedScheduler` to pass a minute in a second.
 *
 * @example
 * const provider = await startRateLimitedProvider({ inputTokensPerMinute: 10_000, clock: acceleratedScheduler(60) });
 * const model = anthropic('claude-fake', { apiKey: 'sk-fake', baseURL: provider.anthropicBaseURL });
 * // …
 * await provider.close();
 */
export async function startRateLimitedProvider(
  options: RateLimitedProviderOptions = {},
): Promise<RateLimitedProvider> {
  const clock = options.clock ?? asyncScheduler;
  const respond = options.respond ?? (() => ({ text: 'OK' }));
  const sendHeaders = options.headers ?? true;
  const budgets = new ProviderBudgets(options, clock.now());
  const log: FakeProviderLogEntry[] = [];

  const handle = async (path: string, body: unknown, index: number): Promise<SseScript> => {
    const protocol = PATHS[path.split('?')[0] ?? ''];
    const entry = (status: FakeProviderLogEntry['status'], extra: Partial<FakeProviderLogEntry> = {}) =>
      log.push({
        at: clock.now(),
        protocol: protocol ?? 'openai',
        status,
        inputTokens: 0,
        outputTokens: 0,
        ...extra,
      });
    if (!protocol) {
      entry(404);
      return { status: 404, json: { error: { message: `No route for ${path}` } } };
    }
    if ((body as { stream?: unknown } | undefined)?.stream !== true) {
      entry(400);
      const message = 'This fake provider answers streaming requests only: send stream: true.';
      return { status: 400, json: { error: { message } } };
    }
    const inputTokens = countInputTokens(body);
    const answer = await respond({ protocol, index, body, inputTokens });
    const outputTokens = countOutputTokens(answer);
    const now = clock.now();
    const verdict = budgets.admit(inputTokens, outputTokens, now);
    const limits = sendHeaders ? rateLimitHeaders(protocol, budgets, now) : {};
    const headers = sendHeaders === 'garbage' ? garbled(limits) : limits;
    if (!verdict.ok) {
      const finite = Number.isFinite(verdict.retryAfterMs);
      entry(429, finite ? { retryAfterMs: verdict.retryAfterMs } : {});
      const retry: Record<string, string> = finite
        ? {
            'retry-after': String(Math.ceil(verdict.retryAfterMs / 1_000)),
            ...(protocol === 'openai' ? { 'retry-after-ms': String(verdict.retryAfterMs) } : {}),
          }
        : {};
      return {
        status: 429,
        headers: { ...headers, ...retry },
        json: rateLimitBody(protocol, verdict.budget),
      };
    }
    entry(200, { inputTokens, outputTokens });
    const named = (body as { model?: unknown }).model;
    const model = typeof named === 'string' ? named : 'fake';
    const events = answerEvents(protocol, model, answer, inputTokens, outputTokens);
    // The head (and its rate-limit headers) goes at once; the body after the latency.
    const latencyMs = options.latencyMs ?? 0;
    return { headers, events: latencyMs > 0 ? [{ wait: () => wait(clock, latencyMs) }, ...events] : events };
  };

  const server = await startSseTestServer((request, index) => handle(request.path, request.body, index));
  return {
    url: server.url,
    openaiBaseURL: `${server.url}/v1`,
    anthropicBaseURL: server.url,
    log,
    close: () => server.close(),
  };
}
