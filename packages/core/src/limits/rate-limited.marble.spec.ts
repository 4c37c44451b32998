import { last, map } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { z } from 'zod';
import { assistantMessage, finishEvent, marbleModel, textDelta } from '@rxagent/testing';
import { RateLimitError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { ModelEvent } from '../model/model-event.js';
import { tool } from '../tools/tool.js';
import { limiter } from './limiter.js';
import { rateLimited } from './rate-limited.js';

// rateLimited models driving whole runs in virtual time: `e1`, `e2` are the model calls' marbles,
// and each stream's subscription log shows when the limiter let the call start.

const hi = assistantMessage([{ type: 'text', text: 'Hi' }], 'stop', {
  usage: { inputTokens: 50, outputTokens: 5 },
});
const values: Record<string, ModelEvent> = {
  a: textDelta('Hi'),
  f: finishEvent(hi),
  h: { type: 'rate-limit', limits: { requests: { limit: 600, remaining: 0 } } },
  g: { type: 'rate-limit', limits: {}, ignored: ['x-ratelimit-remaining-tokens'] },
};
const types = (event: AgentEvent) => event.type;
const prompt = { a: 'agent-start', b: 'turn-start', c: 'message-start', d: 'message-end' };

let testScheduler: TestScheduler;
beforeEach(() => {
  testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

describe('rateLimited', () => {
  it('starts a second run’s call only when the first run’s call has ended (concurrency 1)', () => {
    testScheduler.run(({ cold, expectSubscriptions }) => {
      const e1 = '  -a---f|';
      const e1subs = '^-----!';
      const e2 = '  -a---f|';
      const e2subs = '------^-----!';
      const limits = limiter({ concurrency: 1, followHeaders: false, scheduler: testScheduler });
      const first = marbleModel(cold, [e1], values);
      const second = marbleModel(cold, [e2], values);
      runAgent({ model: rateLimited(first, limits, { key: 'run-1' }), prompt: 'hi' }).subscribe();
      runAgent({ model: rateLimited(second, limits, { key: 'run-2' }), prompt: 'hi' }).subscribe();
      testScheduler.flush();
      expectSubscriptions(first.streams[0]!.subscriptions).toBe(e1subs);
      expectSubscriptions(second.streams[0]!.subscriptions).toBe(e2subs);
    });
  });

  it('passes the events through, the rate-limit event included, and the run reads the same', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = '-ha-f|';
      const expected = '-ha-f|';
      const limits = limiter({
        requestsPerMinute: 600,
        scheduler: testScheduler,
        onWarning: () => undefined,
      });
      const model = rateLimited(marbleModel(cold, [e1, e1], values), limits);
      expectObservable(model.stream({ messages: [] }).pipe(map((e) => e.type))).toBe(expected, {
        h: 'rate-limit',
        a: 'text-delta',
        f: 'finish',
      });
      // A run on it has the same events as a run on a model that sends no headers.
      const withHeaders: AgentEvent[] = [];
      const without: AgentEvent[] = [];
      testScheduler.schedule(() => {
        runAgent({ model, prompt: 'hi', runId: 'r' }).subscribe((e) => withHeaders.push(e));
        const plain = marbleModel(cold, ['--a-f|'], values);
        runAgent({ model: plain, prompt: 'hi', runId: 'r' }).subscribe((e) => without.push(e));
      }, 10);
      testScheduler.flush();
      expect(withHeaders.map(types)).toEqual(without.map(types));
      expect(withHeaders.at(-1)).toEqual(without.at(-1));
    });
  });

  it('follows the headers a call reports: the next call waits for the budget to refill', () => {
    testScheduler.run(({ cold, expectSubscriptions }) => {
      const e1 = '  -h-f|';
      const e2 = '  -a-f|';
      // 6,000 a minute is one per 10 ms, but the provider says 600 (one per 100 ms) and none
      // left at 1 ms: the call asked at 5 ms goes at 101 ms.
      const e2subs = '101ms ^---!';
      const limits = limiter({
        requestsPerMinute: 6_000,
        scheduler: testScheduler,
        onWarning: () => undefined,
      });
      const model = marbleModel(cold, [e1, e2], values);
      const limited = rateLimited(model, limits);
      runAgent({ model: limited, prompt: 'one' }).subscribe();
      testScheduler.schedule(() => runAgent({ model: limited, prompt: 'two' }).subscribe(), 5);
      testScheduler.flush();
      expectSubscriptions(model.streams[1]!.subscriptions).toBe(e2subs);
      expect(limits.state$.value.requests?.perMinute).toBe(600);
    });
  });

  it('pauses every run for a 429 retry-after, and the retry waits its turn', () => {
    testScheduler.run(({ cold, expectSubscriptions }) => {
      const limited429 = new RateLimitError('Slow down', { retryAfterMs: 1_000 });
      const e1 = '  -#';
      const e1subs = '^!';
      const e2 = '  -a-f|';
      const e2subs = '1001ms ^---!'; // the other run: held until the pause (429 at 1 ms + 1 s) ends
      const e3 = '  -a-f|';
      const e3subs = '1005ms ^---!'; // the retry (due at 1,001 ms too) waits behind the other run
      const limits = limiter({ concurrency: 1, followHeaders: false, scheduler: testScheduler });
      const hit = marbleModel(cold, [{ marble: e1, error: limited429 }, e3], values);
      const other = marbleModel(cold, [e2], values);
      runAgent({ model: rateLimited(hit, limits, { key: 'a' }), prompt: 'hi' }).subscribe();
      testScheduler.schedule(() => {
        runAgent({ model: rateLimited(other, limits, { key: 'b' }), prompt: 'hi' }).subscribe();
      }, 2);
      testScheduler.flush();
      expectSubscriptions(hit.streams[0]!.subscriptions).toBe(e1subs);
      expectSubscriptions(other.streams[0]!.subscriptions).toBe(e2subs);
      expectSubscriptions(hit.streams[1]!.subscriptions).toBe(e3subs);
      expect(limits.state$.value.rateLimited).toBe(1);
    });
  });

  it('lets a run wait on its sub-run holding no capacity: nesting does not deadlock', () => {
    testScheduler.run(({ cold }) => {
      const limits = limiter({ concurrency: 1, followHeaders: false, scheduler: testScheduler });
      const call = {
        a: { type: 'toolcall-start', index: 0, id: 'c1', name: 'delegate' },
        f: finishEvent(
          assistantMessage([{ type: 'tool-call', id: 'c1', name: 'delegate', args: {} }], 'tool-calls'),
        ),
      } satisfies Record<string, ModelEvent>;
      const parent = marbleModel(cold, [
        { marble: '-a-f|', values: call },
        { marble: '-a-f|', values },
      ]);
      const child = marbleModel(cold, ['-a-f|'], values);
      const delegate = tool({
        name: 'delegate',
        description: 'Hands the task to a sub-run',
        parameters: z.object({}),
        execute: () =>
          runAgent({ model: rateLimited(child, limits, { key: 'run-1' }), prompt: 'sub' }).pipe(
            last(),
            map(() => 'sub-run done'),
          ),
      });
      const events: string[] = [];
      runAgent({
        model: rateLimited(parent, limits, { key: 'run-1' }),
        tools: [delegate],
        prompt: 'hi',
      }).subscribe({ next: (e) => events.push(e.type), complete: () => events.push('complete') });
      testScheduler.flush();
      expect(events.at(-2)).toBe('agent-end');
      expect(events.at(-1)).toBe('complete');
      // The sub-run's call went while the parent waited in its tool, between its two calls.
      expect(child.streams[0]!.subscriptions).toEqual([{ subscribedFrame: 4, unsubscribedFrame: 8 }]);
      expect(parent.streams[1]!.subscriptions[0]!.subscribedFrame).toBeGreaterThanOrEqual(8);
    });
  });

  it('never calls the model of a run unsubscribed while its call waits', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ concurrency: 1, followHeaders: false, scheduler: testScheduler });
      const busy = marbleModel(cold, ['-a---f|'], values);
      const gone = marbleModel(cold, ['-a-f|'], values);
      runAgent({ model: rateLimited(busy, limits, { key: 'a' }), prompt: 'hi' }).subscribe();
      const waiting = runAgent({ model: rateLimited(gone, limits, { key: 'b' }), prompt: 'hi' });
      // the prompt's message-start and -end, then nothing: the call waits until it is dropped
      expectObservable(waiting.pipe(map(types)), '^--!').toBe('(abcd)', prompt);
      testScheduler.flush();
      expect(gone.streams).toHaveLength(0);
      expect(limits.state$.value).toMatchObject({ inFlight: 0, queued: { interactive: 0 }, admitted: 1 });
    });
  });

  it('fails a run whose call is larger than the budget, without retrying it', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const limits = limiter({ inputTokensPerMinute: 100, followHeaders: false, scheduler: testScheduler });
      const model = marbleModel(cold, ['-a-f|'], values);
      const run = runAgent({ model: rateLimited(model, limits), prompt: 'x'.repeat(2_000) });
      const error = expect.objectContaining({ name: 'RequestTooLargeError', tokens: 504, perMinute: 100 });
      expectObservable(run.pipe(map(types))).toBe('(abcd#)', prompt, error);
      testScheduler.flush();
      expect(model.streams).toHaveLength(0);
    });
  });

  it('warns once when calls send no rate-limit headers, and once for headers it cannot read', () => {
    testScheduler.run(({ cold }) => {
      const warnings: string[] = [];
      const limits = limiter({
        concurrency: 2,
        scheduler: testScheduler,
        onWarning: (m) => warnings.push(m),
      });
      const model = marbleModel(cold, ['-a-f|', '-a-f|', '-g-f|', '-g-f|'], values);
      for (const prompt of ['1', '2', '3', '4']) {
        runAgent({ model: rateLimited(model, limits), prompt }).subscribe();
      }
      testScheduler.flush();
      expect(warnings).toEqual([
        expect.stringContaining('ended without rate-limit headers'),
        expect.stringContaining('could not be read (x-ratelimit-remaining-tokens)'),
      ]);
      expect(limits.state$.value.warnings).toEqual(warnings);
    });
  });
});
