import fc from 'fast-check';
import { RetriesExhaustedError } from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import type { RetryEvent } from '@rxagent/core/events';
import type { SseTestServer } from '@rxagent/testing';
import { faultRuns, faultSeed, faultTimeout } from './fault-config.js';
import { installProcessGuards } from './process-guards.js';
import {
  expectedFor,
  faultScript,
  PROVIDER_FAULTS,
  successScript,
  type Provider,
  type ProviderFault,
} from './provider-faults.js';
import { adapterFor, runThroughAdapter, startQueueServer, type QueueServer } from './provider-run.js';
import { flushReports } from './virtual-time.js';

const API_KEY = 'sk-test-fault-key';

interface Plan {
  provider: Provider;
  faults: ProviderFault[];
  maxRetries: number;
  /** Transport split of the successful answer (bytes), or none. */
  chunkSize?: number;
}

const PROVIDER_ERROR_KINDS = [
  'ProviderError',
  'RateLimitError',
  'OverloadedError',
  'ProviderTimeoutError',
  'StreamIdleError',
  'NetworkError',
  'AuthError',
  'ContextOverflowError',
  'PartialStreamError',
];

/** The error names (as serialized in `retry` events) that count as one of `classes`. */
function kindsOf(classes: { kind: string }[]): string[] {
  return classes.flatMap((c) => (c.kind === 'ProviderError' ? PROVIDER_ERROR_KINDS : [c.kind]));
}

/** What the retry policy says should happen: how many retries, then success or which failure. */
function predict(plan: Plan) {
  for (const [i, fault] of plan.faults.entries()) {
    const expected = expectedFor(plan.provider, fault);
    if (!expected.retryable) return { retries: i, end: 'failed' as const, last: i };
    if (i + 1 > plan.maxRetries) return { retries: i, end: 'exhausted' as const, last: i };
  }
  return { retries: plan.faults.length, end: 'completed' as const, last: -1 };
}

const planArb: fc.Arbitrary<Plan> = fc.record(
  {
    provider: fc.constantFrom<Provider>('openai', 'anthropic'),
    faults: fc.array(fc.constantFrom(...PROVIDER_FAULTS), { maxLength: 4 }),
    maxRetries: fc.integer({ min: 0, max: 3 }),
    chunkSize: fc.constantFrom(undefined, 7, 64),
  },
  { requiredKeys: ['provider', 'faults', 'maxRetries'] },
);

describe('provider faults through the real adapters and runAgent', () => {
  const guard = installProcessGuards();
  // The Anthropic SDK logs unparsable events with console.error itself; keep them out of the
  // test output, but keep them to check that no log line carries the key.
  const logged: string[] = [];
  let consoleError: jest.SpyInstance | undefined;
  let queued: QueueServer;
  let server: SseTestServer;
  beforeAll(async () => {
    consoleError = jest.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
      logged.push(args.map(String).join(' '));
    });
    queued = await startQueueServer();
    server = queued.server;
  });
  afterAll(async () => {
    consoleError?.mockRestore();
    guard.uninstall();
    await server.close();
  });

  it(
    'every run completes or fails with the typed error its fault calls for, retrying as the policy says',
    async () => {
      const models = {
        openai: adapterFor('openai', server, API_KEY, queued.clock),
        anthropic: adapterFor('anthropic', server, API_KEY, queued.clock),
      };
      const outcomes = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(planArb, async (plan) => {
          queued.queue.length = 0;
          queued.queue.push(
            ...plan.faults.map((f) => faultScript(plan.provider, f)),
            successScript(plan.provider, plan.chunkSize),
          );
          const run = await runThroughAdapter(models[plan.provider], server, plan.maxRetries);
          const want = predict(plan);
          outcomes.set(want.end, (outcomes.get(want.end) ?? 0) + 1);
          const retries = run.events.filter((e): e is RetryEvent => e.type === 'retry');

          // Retries as the policy says, each announced, each a new request.
          expect(retries).toHaveLength(want.retries);
          expect(run.requests).toBe(want.end === 'completed' ? plan.faults.length + 1 : want.last + 1);
          retries.forEach((retry, i) => {
            const expected = expectedFor(plan.provider, plan.faults[i] as ProviderFault);
            expect(kindsOf(expected.classes)).toContain(retry.error.name);
            expect(retry.delayMs).toBe(Math.min(expected.retryAfterMs ?? 2 ** i, 50));
          });

          if (want.end === 'completed') {
            expect(run.error).toBeUndefined();
            expect(run.completed).toBe(true);
            const end = run.events.at(-1);
            expect(end?.type === 'agent-end' && end.reason).toBe('completed');
            if (end?.type === 'agent-end') expect(validateMessageSequence(end.messages)).toEqual([]);
          } else {
            const lastFault = plan.faults[want.last] as ProviderFault;
            const expected = expectedFor(plan.provider, lastFault);
            let error = run.error;
            if (want.end === 'exhausted') {
              expect(RetriesExhaustedError.isInstance(error)).toBe(true);
              const errors = (error as RetriesExhaustedError).errors;
              expect(errors).toHaveLength(want.last + 1);
              errors.forEach((e, i) => {
                const cls = expectedFor(plan.provider, plan.faults[i] as ProviderFault).classes;
                expect(cls.some((c) => c.isInstance(e))).toBe(true);
              });
              error = (error as RetriesExhaustedError).lastError;
            }
            expect({ fault: lastFault, typed: expected.classes.some((c) => c.isInstance(error)) }).toEqual({
              fault: lastFault,
              typed: true,
            });
            expect(run.state.phase).toBe('error');
          }
          expect(validateMessageSequence(run.state.messages)).toEqual([]);
        }),
        { numRuns: faultRuns(60, 1_000), seed: faultSeed() },
      );
      await flushReports();
      expect(guard.faults.unhandledRejections).toEqual([]);
      expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
      expect(outcomes.get('completed') ?? 0).toBeGreaterThan(0);
      expect(logged.filter((line) => line.includes(API_KEY))).toEqual([]);
    },
    faultTimeout(60_000, 900_000),
  );
});
