import { lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { assistantMessage, finishEvent, marbleModel, textDelta } from '@rxagent/testing';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  RateLimitError,
} from '../errors/provider-errors.js';
import { runAgent } from '../loop/run-agent.js';
import { userMessage } from '../messages/message-helpers.js';
import type { AssistantMessage } from '../messages/types.js';
import type { ChatRequest } from './chat-model.js';
import { fallbackModel, type FallbackEvent } from './fallback-model.js';
import type { ModelEvent } from './model-event.js';

// fallbackModel in the RxJS spec shape: each member is a marble model; `e1` is the primary's
// stream, `e2` the secondary's, `expected` what the fallback model emits.

const answer = (provider: string, model: string): AssistantMessage =>
  assistantMessage([{ type: 'text', text: 'Hi' }], 'stop', { provider, model });
const values = (provider: string, model: string): Record<string, ModelEvent> => ({
  a: textDelta('Hi'),
  f: finishEvent(answer(provider, model)),
});
const request: ChatRequest = { messages: [userMessage('Hello', 0)] };
const summary = (e: ModelEvent) =>
  e.type === 'finish' ? `finish:${e.message.provider}/${e.message.model}` : e.type;

let testScheduler: TestScheduler;
beforeEach(() => {
  testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
});

describe('fallbackModel', () => {
  it('moves to the next model on a rate limit before any event, and the answer names it', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = '  --#';
      const e1subs = '^-!';
      const e2 = '    -a-f|';
      const e2subs = '--^---!';
      const expected = '---a-f|';
      const primary = marbleModel(
        cold,
        [{ marble: e1, error: new RateLimitError('Slow down') }],
        {},
        {
          provider: 'anthropic',
          modelId: 'claude',
        },
      );
      const secondary = marbleModel(cold, [e2], values('openai', 'gpt'), {
        provider: 'openai',
        modelId: 'gpt',
      });
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      const seen: FallbackEvent[] = [];
      model.events$.subscribe((e) => seen.push(e));

      expectObservable(model.stream(request).pipe(map(summary))).toBe(expected, {
        a: 'text-delta',
        f: 'finish:openai/gpt',
      });
      testScheduler.flush();
      expectSubscriptions(primary.streams[0]!.subscriptions).toBe(e1subs);
      expectSubscriptions(secondary.streams[0]!.subscriptions).toBe(e2subs);
      expect(seen).toEqual([
        {
          type: 'failover',
          from: 'anthropic/claude',
          to: 'openai/gpt',
          reason: 'rate-limit',
          error: expect.objectContaining({ name: 'RateLimitError', retryable: true }),
        },
        { type: 'answered', provider: 'openai', modelId: 'gpt', index: 1 },
      ]);
    });
  });

  it.each([
    ['an auth failure', new AuthError('Invalid API key')],
    ['a context overflow', new ContextOverflowError('prompt is too long')],
    ['an untyped error', new Error('bug in a tool')],
  ])('never fails over on %s', (_name, error) => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = '  -#';
      const expected = '-#';
      const primary = marbleModel(cold, [{ marble: e1, error }]);
      const secondary = marbleModel(cold, ['-a-f|'], values('openai', 'gpt'));
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      expectObservable(model.stream(request)).toBe(expected, undefined, error);
      testScheduler.flush();
      expect(secondary.streams).toHaveLength(0);
    });
  });

  it('still moves on when the failing model sent only its rate-limit headers', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = '  -h#';
      const e2 = '    -a-f|';
      const expected = '-h-a-f|';
      const headers: ModelEvent = { type: 'rate-limit', limits: { requests: { remaining: 0 } } };
      const error = new OverloadedError('Overloaded', { status: 529 });
      const primary = marbleModel(cold, [{ marble: e1, error, values: { h: headers } }]);
      const secondary = marbleModel(cold, [e2], values('openai', 'gpt'));
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      expectObservable(model.stream(request).pipe(map(summary))).toBe(expected, {
        h: 'rate-limit',
        a: 'text-delta',
        f: 'finish:openai/gpt',
      });
    });
  });

  it('passes on a failure after events were emitted, and the next call starts with the next model', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = '  -a-#';
      const expected = '-a-#';
      const error = new NetworkError('socket hang up');
      const primary = marbleModel(cold, [{ marble: e1, error }], values('anthropic', 'claude'), {
        provider: 'anthropic',
        modelId: 'claude',
      });
      const secondary = marbleModel(cold, ['-f|'], values('openai', 'gpt'), {
        provider: 'openai',
        modelId: 'gpt',
      });
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      const seen: FallbackEvent[] = [];
      model.events$.subscribe((e) => seen.push(e));
      expectObservable(model.stream(request).pipe(map(summary))).toBe(expected, { a: 'text-delta' }, error);
      testScheduler.schedule(() => {
        expect(secondary.streams).toHaveLength(0);
        expect(seen).toEqual([
          {
            type: 'failover',
            from: 'anthropic/claude',
            reason: 'network',
            error: expect.objectContaining({ name: 'NetworkError' }),
          },
        ]);
        expect(model.provider).toBe('openai');
      }, 5);
      // Subscribed after the failure: the secondary is asked first, the primary not at all.
      expectObservable(model.stream(request).pipe(map(summary)), '------^').toBe('-------f|', {
        f: 'finish:openai/gpt',
      });
      testScheduler.flush();
      expect(primary.streams).toHaveLength(1);
      expect(secondary.streams).toHaveLength(1);
    });
  });

  it('tries the primary first again once retryPrimaryAfterMs has passed', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const primary = marbleModel(
        cold,
        [{ marble: '#', error: new OverloadedError('Overloaded', { status: 529 }) }, '-f|'],
        values('anthropic', 'claude'),
        { provider: 'anthropic', modelId: 'claude' },
      );
      const secondary = marbleModel(cold, ['-f|', '-f|'], values('openai', 'gpt'), {
        provider: 'openai',
        modelId: 'gpt',
      });
      const model = fallbackModel([primary, secondary], {
        scheduler: testScheduler,
        retryPrimaryAfterMs: 100,
      });
      const names = { f: 'finish:openai/gpt', g: 'finish:anthropic/claude' };
      expectObservable(model.stream(request).pipe(map(summary))).toBe('-f|', names);
      // Within the cool-down the secondary answers without the primary being asked.
      expectObservable(model.stream(request).pipe(map(summary)), '50ms ^').toBe('50ms -f|', names);
      expectObservable(model.stream(request).pipe(map(summary)), '150ms ^').toBe('150ms -g|', names);
      testScheduler.flush();
      expect(primary.streams).toHaveLength(2);
      expect(secondary.streams).toHaveLength(2);
    });
  });

  it('unsubscribing tears down the model in flight and tries no other', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = '  ---a--f|';
      const e1subs = '^--!';
      const unsub = ' ---!';
      const primary = marbleModel(cold, [e1], values('anthropic', 'claude'));
      const secondary = marbleModel(cold, ['-f|'], values('openai', 'gpt'));
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      expectObservable(model.stream(request), unsub).toBe('---');
      testScheduler.flush();
      expectSubscriptions(primary.streams[0]!.subscriptions).toBe(e1subs);
      expect(secondary.streams).toHaveLength(0);
    });
  });

  it('errors with the last failure when every model failed', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const last = new RateLimitError('Also slow');
      const primary = marbleModel(cold, [{ marble: '-#', error: new NetworkError('refused') }]);
      const secondary = marbleModel(cold, [{ marble: '-#', error: last }]);
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      expectObservable(model.stream(request)).toBe('--#', undefined, last);
    });
  });

  it('is retried as a whole by the core: a mid-stream failure is discarded and the retry answers on the next model', async () => {
    const testScheduler = new TestScheduler((a, e) => expect(a).toEqual(e));
    await testScheduler.run(async ({ cold }) => {
      const primary = marbleModel(
        cold,
        [{ marble: '-a-#', error: new NetworkError('cut') }],
        values('anthropic', 'claude'),
        {
          provider: 'anthropic',
          modelId: 'claude',
        },
      );
      const secondary = marbleModel(cold, ['-a-f|'], values('openai', 'gpt'), {
        provider: 'openai',
        modelId: 'gpt',
      });
      const model = fallbackModel([primary, secondary], { scheduler: testScheduler });
      const events$ = runAgent({
        model,
        prompt: 'Hello',
        scheduler: testScheduler,
        retryBackoff: { jitter: 0 },
      }).pipe(toArray());
      const done = lastValueFrom(events$);
      testScheduler.flush();
      const events = await done;
      expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
      const end = events.find((e) => e.type === 'agent-end');
      expect(end?.type === 'agent-end' && end.messages.at(-1)).toMatchObject({
        role: 'assistant',
        provider: 'openai',
        model: 'gpt',
      });
      expect(primary.streams).toHaveLength(1);
    });
  });

  it('refuses an empty list with a message that says what to pass', () => {
    expect(() => fallbackModel([])).toThrow(/at least one model/);
  });
});
