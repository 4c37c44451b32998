import type { LimitsResult } from './limits-bench.js';
import { formatValue, type Row } from './report.js';

/**
 * The targets of the rate-limit rows (issue 26): no failed run, at least 90 % of the token
 * budget used while work waits, at most 2 % of requests refused with a 429.
 *
 * @example
 * const met = result.limiter.rateLimitedShare <= LIMITS_TARGETS.rateLimitedShare;
 */
export const LIMITS_TARGETS = {
  failedRuns: 0,
  budgetUsedShare: 0.9,
  rateLimitedShare: 0.02,
} as const;

const percent = (share: number) => `${(share * 100).toFixed(1)} %`;

/**
 * The rate-limit rows: the shared limiter's failed runs, budget use and 429 share, each beside
 * the same load with retries only.
 *
 * @example
 * rows.push(...limitsRows(await benchLimits()));
 */
export function limitsRows(r: LimitsResult): Row[] {
  const { limiter: l, retriesOnly: b } = r;
  const section =
    `Rate limits: ${r.runs} concurrent runs (${r.runsWithHelpers} with 3 sub-agents), ` +
    `${r.tokensPerMinute.toLocaleString('en-US')} input tokens/min (half the load), clock ×${r.speed}`;
  const failed = l.failedRuns + l.failedSubRuns;
  const baselineFailed = b.failedRuns + b.failedSubRuns;
  return [
    {
      section,
      name: `limiter: failed runs (of ${l.runs} runs and ${l.subRuns} sub-runs)`,
      value: failed,
      unit: 'count',
      baseline: `retries only ${baselineFailed} (${b.failedRuns} runs, ${b.failedSubRuns} sub-runs)`,
      target: '0',
      met: failed <= LIMITS_TARGETS.failedRuns,
    },
    {
      section,
      name: 'limiter: token budget used while work waits',
      value: l.budgetUsedShare * 100,
      unit: '%',
      baseline: `retries only ${percent(b.budgetUsedShare)}`,
      target: `≥ ${LIMITS_TARGETS.budgetUsedShare * 100} %`,
      met: l.budgetUsedShare >= LIMITS_TARGETS.budgetUsedShare,
    },
    {
      section,
      name: `limiter: 429s / requests (${l.rateLimited} of ${l.requests})`,
      value: l.rateLimitedShare * 100,
      unit: '%',
      baseline: `retries only ${percent(b.rateLimitedShare)} (${b.rateLimited} of ${b.requests})`,
      target: `≤ ${LIMITS_TARGETS.rateLimitedShare * 100} %`,
      met: l.rateLimitedShare <= LIMITS_TARGETS.rateLimitedShare,
    },
    {
      section,
      name: `limiter: the load, on the clock (${formatValue(l.realSeconds, 's')} real)`,
      value: l.minutes,
      unit: 'min',
      baseline: `retries only ${formatValue(b.minutes, 'min')} (${formatValue(b.realSeconds, 's')} real)`,
      ratio: l.minutes / b.minutes,
    },
  ];
}
