import { lastValueFrom, toArray, VirtualTimeScheduler, type SchedulerLike } from 'rxjs';
import { RateLimitError, userMessage, type ChatModel, type ModelEvent } from '@rxagent/core';
import { anthropic } from '@rxagent/anthropic';
import { openai } from '@rxagent/openai';
import { countInputTokens } from './provider-wire.js';
import { startRateLimitedProvider, type RateLimitedProvider } from './rate-limited-provider.js';

// The fake provider driven through the real adapters (the official SDKs over HTTP). Its clock
// is a VirtualTimeScheduler that is never run: the tests move its time by hand (`clock.frame`).

let provider: RateLimitedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

// The adapters read Anthropic's reset dates on their scheduler's clock: give them the provider's.
type ModelFor = (p: RateLimitedProvider, scheduler?: SchedulerLike) => ChatModel;
const models: Record<'openai' | 'anthropic', ModelFor> = {
  openai: (p, scheduler) => openai('gpt-fake', { apiKey: 'sk-fake', baseURL: p.openaiBaseURL, scheduler }),
  anthropic: (p, scheduler) =>
    anthropic('claude-fake', { apiKey: 'sk-ant-fake', baseURL: p.anthropicBaseURL, scheduler }),
};

const ask = (model: ChatModel, text = 'Hi') =>
  lastValueFrom(model.stream({ messages: [userMessage(text)] }).pipe(toArray()));
const fails = (model: ChatModel, text = 'Hi') =>
  ask(model, text).then(
    () => undefined,
    (error: unknown) => error,
  );
const headersOf = (events: ModelEvent[]) => events.find((e) => e.type === 'rate-limit');
const finishOf = (events: ModelEvent[]) => events.find((e) => e.type === 'finish');

describe.each(['openai', 'anthropic'] as const)('startRateLimitedProvider over %s', (protocol) => {
  it('serves while one request a minute is left, then answers 429 with the wait until one is back', async () => {
    const clock = new VirtualTimeScheduler();
    provider = await startRateLimitedProvider({ requestsPerMinute: 2, clock });
    const model = models[protocol](provider);
    expect(finishOf(await ask(model))).toBeDefined();
    expect(finishOf(await ask(model))).toBeDefined();
    const error = await fails(model);
    expect(RateLimitError.isInstance(error)).toBe(true);
    // Two requests spent at time 0 of a 2-a-minute budget: one is back after 30 s.
    expect((error as RateLimitError).retryAfterMs).toBe(30_000);
    clock.frame = 30_000;
    expect(finishOf(await ask(model))).toBeDefined();
    expect(provider.log.map((entry) => entry.status)).toEqual([200, 200, 429, 200]);
  });

  it('sends the provider’s rate-limit headers, which the adapter reports as a rate-limit event', async () => {
    const clock = new VirtualTimeScheduler();
    provider = await startRateLimitedProvider({
      requestsPerMinute: 10,
      inputTokensPerMinute: 1_000,
      outputTokensPerMinute: 500,
      clock,
    });
    const events = await ask(models[protocol](provider, clock));
    const tokens = provider.log[0]!.inputTokens;
    expect(tokens).toBe(countInputTokens({ messages: [{ role: 'user', content: 'Hi' }] }));
    const requests = { limit: 10, remaining: 9, resetMs: 6_000 };
    const input = { limit: 1_000, remaining: 1_000 - tokens, resetMs: Math.ceil(tokens * 60) };
    const output = { limit: 500, remaining: 499, resetMs: 120 };
    const expected =
      protocol === 'openai'
        ? { requests, tokens: input }
        : {
            requests,
            inputTokens: input,
            outputTokens: output,
            tokens: output.remaining < input.remaining ? output : input,
          };
    expect(headersOf(events)).toEqual({ type: 'rate-limit', limits: expected });
  });

  it('charges the input tokens counted from the request, and reports them as its usage', async () => {
    const clock = new VirtualTimeScheduler();
    provider = await startRateLimitedProvider({ inputTokensPerMinute: 100, clock });
    const model = models[protocol](provider);
    const long = 'x'.repeat(300); // about 80 tokens
    const events = await ask(model, long);
    const charged = provider.log[0]!.inputTokens;
    expect(charged).toBeGreaterThan(75);
    expect(finishOf(events)).toMatchObject({ message: { usage: { inputTokens: charged, outputTokens: 1 } } });
    const error = await fails(model, long);
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(provider.log[1]).toMatchObject({ status: 429, inputTokens: 0 });
  });

  it('sends the head at once and the body after its latency on the clock', async () => {
    const clock = new VirtualTimeScheduler();
    provider = await startRateLimitedProvider({ requestsPerMinute: 10, latencyMs: 5_000, clock });
    const events: ModelEvent[] = [];
    let headArrived: () => void = () => undefined;
    const head = new Promise<void>((resolve) => (headArrived = resolve));
    const done = new Promise<void>((resolve, reject) => {
      models[protocol](provider!)
        .stream({ messages: [userMessage('Hi')] })
        .subscribe({
          next: (event) => {
            events.push(event);
            if (event.type === 'rate-limit') headArrived();
          },
          complete: resolve,
          error: reject,
        });
    });
    await head;
    expect(events.map((e) => e.type)).toEqual(['rate-limit']);
    clock.flush(); // the 5 s pass on the provider's clock
    await done;
    expect(finishOf(events)).toBeDefined();
  });

  it('answers tool calls scripted by respond, through the real stream', async () => {
    provider = await startRateLimitedProvider({
      respond: ({ index }) =>
        index === 0 ? { toolCalls: [{ name: 'read', args: { path: 'a.txt' } }] } : { text: 'Done.' },
    });
    const events = await ask(models[protocol](provider));
    expect(finishOf(events)).toMatchObject({
      reason: 'tool-calls',
      message: { content: [{ type: 'tool-call', name: 'read', args: { path: 'a.txt' } }] },
    });
  });

  it('sends unreadable rate-limit headers when asked, and the adapter names them as ignored', async () => {
    provider = await startRateLimitedProvider({ requestsPerMinute: 10, headers: 'garbage' });
    const event = headersOf(await ask(models[protocol](provider)));
    expect(event).toMatchObject({ type: 'rate-limit', limits: {} });
    expect(event && 'ignored' in event && event.ignored?.length).toBeGreaterThan(0);
  });
});
