import type { SchedulerLike } from 'rxjs';
import type { ChatModel } from '@rxagent/core';
import { limiter, rateLimited, type Limiter } from '@rxagent/core/models';
import { openai } from '@rxagent/openai';
import {
  acceleratedScheduler,
  startRateLimitedProvider,
  type FakeProviderLogEntry,
  type RateLimitedProvider,
} from '@rxagent/testing';
import { helpersFor, respondToWorkload, runWorkload, type WorkloadOutcome } from './limits-workload.js';

/**
 * One way of running the load against the limited provider, and how it went.
 *
 * @example
 * console.log(`${result.limiter.rateLimitedShare * 100} % of requests got a 429`);
 */
export interface LimitsContender extends WorkloadOutcome {
  /** Requests the provider received (served and refused). */
  requests: number;
  /** Of them, answered 429. */
  rateLimited: number;
  rateLimitedShare: number;
  /**
   * Input tokens the provider served while work was waiting (from the first request to the
   * last one served), as a share of the budget it had in that time (the full bucket at the
   * start and its refill).
   */
  budgetUsedShare: number;
  /** Clock minutes from the start until every run ended. */
  minutes: number;
  /** Real seconds the same took. */
  realSeconds: number;
}

/**
 * The rate-limit benchmark's figures.
 *
 * @example
 * rows.push(...limitsRows(await benchLimits()));
 */
export interface LimitsResult {
  runs: number;
  runsWithHelpers: number;
  /** The provider's input-token budget per minute (half the load's tokens: about a minute of work). */
  tokensPerMinute: number;
  /** Input tokens the whole load needs (measured on an unlimited provider). */
  workTokens: number;
  /** How much faster than real time the clock ran. */
  speed: number;
  limiter: LimitsContender;
  retriesOnly: LimitsContender;
}

/**
 * Options of `benchLimits`.
 *
 * @example
 * await benchLimits({ runs: 10, speed: 120 });
 */
export interface LimitsBenchOptions {
  /** Concurrent top-level runs (default 50). */
  runs?: number;
  /** Clock speed over real time (default 15: a minute in 4 s; faster makes a busy machine the bottleneck). */
  speed?: number;
  /** Model calls in flight at once under the limiter (default 16). */
  concurrency?: number;
  /** Clock ms between a served request's head and its body (default 1,500: streaming time). */
  latencyMs?: number;
}

const requestsPerMinute = 10_000; // not the binding limit

function budgetUsedShare(log: readonly FakeProviderLogEntry[], perMinute: number): number {
  const served = log.filter((e) => e.status === 200);
  const first = log[0]?.at ?? 0;
  const last = served.at(-1)?.at ?? first;
  const used = served.reduce((n, e) => n + e.inputTokens, 0);
  return used / (perMinute + (perMinute * (last - first)) / 60_000);
}

async function contender(
  options: Required<LimitsBenchOptions>,
  tokensPerMinute: number,
  withLimiter: boolean,
): Promise<LimitsContender> {
  const clock = acceleratedScheduler(options.speed);
  const provider = await startRateLimitedProvider({
    inputTokensPerMinute: tokensPerMinute,
    requestsPerMinute,
    latencyMs: options.latencyMs,
    respond: respondToWorkload,
    clock,
  });
  try {
    const limits = withLimiter
      ? limiter({ inputTokensPerMinute: tokensPerMinute, concurrency: options.concurrency, scheduler: clock })
      : undefined;
    const started = { clock: clock.now(), real: performance.now() };
    const outcome = await runWorkload(options.runs, models(provider, clock, limits), clock);
    const rateLimited = provider.log.filter((e) => e.status === 429).length;
    return {
      ...outcome,
      requests: provider.log.length,
      rateLimited,
      rateLimitedShare: rateLimited / Math.max(1, provider.log.length),
      budgetUsedShare: budgetUsedShare(provider.log, tokensPerMinute),
      minutes: (clock.now() - started.clock) / 60_000,
      realSeconds: (performance.now() - started.real) / 1_000,
    };
  } finally {
    await provider.close();
  }
}

/** Each run's model: the OpenAI adapter on the provider, under the shared limiter when there is one. */
function models(provider: RateLimitedProvider, clock: SchedulerLike, limits: Limiter | undefined) {
  return (run: number): ChatModel => {
    const base = openai('gpt-fake', {
      apiKey: 'sk-bench',
      baseURL: provider.openaiBaseURL,
      scheduler: clock,
      idleTimeoutMs: 600_000, // a busy machine must not turn into stream timeouts
    });
    return limits ? rateLimited(base, limits, { key: `run-${run}` }) : base;
  };
}

/** The input tokens the load needs, served by a provider without limits. */
async function measureWork(options: Required<LimitsBenchOptions>): Promise<number> {
  const clock = acceleratedScheduler(options.speed);
  const provider = await startRateLimitedProvider({ respond: respondToWorkload, clock });
  try {
    await runWorkload(options.runs, models(provider, clock, undefined), clock);
    return provider.log.reduce((n, e) => n + e.inputTokens, 0);
  } finally {
    await provider.close();
  }
}

/**
 * `runs` concurrent runs (2 in 5 with 3 sub-agents each, `@rxagent/subagents`) through the
 * real OpenAI adapter against the fake provider (`startRateLimitedProvider`) limited to half
 * the load's input tokens a minute, so the work takes about a minute of its clock: once with
 * one limiter shared by every run and sub-run (`rateLimited` per run, the run's key for its
 * sub-runs too), once with the core's retries only. The clock is accelerated (`speed`).
 *
 * @example
 * const result = await benchLimits({ runs: 50 });
 */
export async function benchLimits(options: LimitsBenchOptions = {}): Promise<LimitsResult> {
  const o: Required<LimitsBenchOptions> = {
    runs: options.runs ?? 50,
    speed: options.speed ?? 15,
    concurrency: options.concurrency ?? 16,
    latencyMs: options.latencyMs ?? 1_500,
  };
  const workTokens = await measureWork(o);
  const tokensPerMinute = Math.ceil(workTokens / 2);
  const withLimiter = await contender(o, tokensPerMinute, true);
  const retriesOnly = await contender(o, tokensPerMinute, false);
  return {
    runs: o.runs,
    runsWithHelpers: Array.from({ length: o.runs }, (_, run) => run).filter(helpersFor).length,
    tokensPerMinute,
    workTokens,
    speed: o.speed,
    limiter: withLimiter,
    retriesOnly,
  };
}
