import { lastValueFrom } from 'rxjs';
import { runAgent, type ChatModel } from '@rxagent/core';
import { limiter, rateLimited } from '@rxagent/core/models';
import { openai } from '@rxagent/openai';
import { acceleratedScheduler } from './accelerated-scheduler.js';
import { startRateLimitedProvider, type RateLimitedProvider } from './rate-limited-provider.js';

// Runs through the real OpenAI adapter against the fake provider, on one accelerated clock (a
// minute a second) shared by the provider, the limiter, the adapter and the runs. The limiter's
// estimate of each call equals what the provider charges (one user message, no system prompt,
// no tools) and the provider charges later than the limiter admits, on the same clock: with
// the limiter no request can be refused, however busy the machine is.

const RUNS = 8;
const PROMPT = 'Summarise the following. '.repeat(64); // 1,600 characters: 404 tokens with its message
const TOKENS_PER_MINUTE = 1_000; // 8 × 404 tokens: about 2.2 minutes of the budget

let provider: RateLimitedProvider | undefined;
afterEach(async () => {
  await provider?.close();
  provider = undefined;
});

async function runAll(model: (clock: ReturnType<typeof acceleratedScheduler>) => ChatModel[]) {
  const clock = acceleratedScheduler(60);
  provider = await startRateLimitedProvider({ inputTokensPerMinute: TOKENS_PER_MINUTE, clock });
  const start = clock.now();
  const outcomes = await Promise.all(
    model(clock).map((m) =>
      lastValueFrom(runAgent({ model: m, prompt: PROMPT, scheduler: clock, maxRetries: 3 })).then(
        () => 'done',
        () => 'failed',
      ),
    ),
  );
  return { outcomes, minutes: (clock.now() - start) / 60_000, log: provider.log };
}

const adapter = (p: RateLimitedProvider, clock: ReturnType<typeof acceleratedScheduler>) =>
  openai('gpt-fake', { apiKey: 'sk-fake', baseURL: p.openaiBaseURL, scheduler: clock });

describe('a shared limiter against the rate-limited provider', () => {
  it('spreads the runs over the budget: every run done, no request refused', async () => {
    const result = await runAll((clock) => {
      const limits = limiter({ inputTokensPerMinute: TOKENS_PER_MINUTE, scheduler: clock });
      return Array.from({ length: RUNS }, (_, i) =>
        rateLimited(adapter(provider!, clock), limits, { key: `run-${i}` }),
      );
    });
    expect(result.outcomes).toEqual(Array(RUNS).fill('done'));
    expect(result.log.map((entry) => entry.status)).toEqual(Array(RUNS).fill(200));
    expect(result.log.every((entry) => entry.inputTokens === 404)).toBe(true);
    // The provider's budget itself makes the work take (8 × 404 − 1,000) / 1,000 minutes.
    expect(result.minutes).toBeGreaterThan(2.2);
  }, 30_000);

  it('without it the same runs hit the limit at once and live on retries', async () => {
    const result = await runAll((clock) => Array.from({ length: RUNS }, () => adapter(provider!, clock)));
    expect(result.log.filter((entry) => entry.status === 429).length).toBeGreaterThan(0);
  }, 30_000);
});
