import {
  compactContext,
  isTurn,
  NetworkError,
  userMessage,
  type AgentMessage,
  type LoopItem,
} from '@rxagent/core';
import {
  aTurn,
  createTestScheduler,
  EVENT_LETTERS,
  errorTurn,
  scriptedModel,
  textTurn,
  timeline,
} from '@rxagent/testing';
import { map, type Observable } from 'rxjs';
import type { TestScheduler } from 'rxjs/testing';
import { contextEngine } from './context-engine.js';

// Marble tests of the engine's projection in virtual time: `t` is the projected turn, the
// other letters are events (EVENT_LETTERS: M summary-start, m summary-update, C compaction,
// X context-usage, R retry).

const SUMMARY = '## Goal\nShip.\n## Progress\nHalf.\n## Key decisions\n- None.\n## Next steps\n- The rest.';
/** The summary streamed in two deltas. */
const TWO_DELTAS = { chunks: [SUMMARY.slice(0, 14), SUMMARY.slice(14)] };

/** 20 text exchanges of 2,000 characters each: ~10,000 tokens, over an 8,000 window's budget. */
function longTranscript(): AgentMessage[] {
  const messages: AgentMessage[] = [userMessage('Ship the release.')];
  for (let i = 0; i < 20; i++) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'text', text: `Answer ${i}: ${'a'.repeat(2_000)}` }],
        stopReason: 'stop',
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
        provider: 'test',
        model: 'test',
        timestamp: 0,
      },
      userMessage(`Question ${i + 1}`),
    );
  }
  return messages;
}

const letters = (source: Observable<LoopItem>) =>
  source.pipe(map((item) => (isTurn(item) ? 't' : EVENT_LETTERS[item.type])));

describe('contextEngine projection timing (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = createTestScheduler();
  });

  it('passes a context under budget on at once, with its usage', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const summaries = scriptedModel([textTurn(SUMMARY)], { scheduler: testScheduler, latency: 5 });
      const engine = contextEngine({ model: summaries, contextWindow: 8_000 });
      const e1 = cold('-t 9ms |', { t: aTurn({ messages: [userMessage('hi')], scheduler: testScheduler }) });
      const e1subs = '^ 10ms !';
      const expected = timeline([1, 'Xt'], [11, '|']);

      expectObservable(letters(e1.pipe(compactContext(engine)))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('holds the turn while the summary streams, then emits the compaction, the usage and the turn', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      // Latency: the first event after 5 ms, the next ones 1 ms apart; two text deltas.
      const summaries = scriptedModel([textTurn(SUMMARY, TWO_DELTAS)], {
        scheduler: testScheduler,
        latency: { firstMs: 5, perEventMs: 1 },
      });
      const model = scriptedModel([], { modelId: 'gpt-test' });
      const engine = contextEngine({ model, summaryModel: summaries, contextWindow: 8_000 });
      const e1 = cold('-t 19ms |', { t: aTurn({ messages: longTranscript(), scheduler: testScheduler }) });
      const e1subs = '^ 20ms !';
      const expected = timeline([1, 'XM'], [6, 'm'], [7, 'm'], [10, 'CXt'], [21, '|']);

      expectObservable(letters(e1.pipe(compactContext(engine)))).toBe(expected);
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('retries a failed summary call after its delay on the scheduler', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const summaries = scriptedModel(
        [errorTurn(new NetworkError('reset')), textTurn(SUMMARY, { chunks: [SUMMARY] })],
        { scheduler: testScheduler, latency: 4 },
      );
      const engine = contextEngine({
        model: summaries,
        contextWindow: 8_000,
        retryDelayMs: 100,
      });
      const e1 = cold('-t 199ms |', { t: aTurn({ messages: longTranscript(), scheduler: testScheduler }) });
      // Attempt 1 fails at 5 (after 4 ms); retry at 5, 100 ms wait; attempt 2: delta at 109,
      // usage 113, finish 117, end 121.
      const expected = timeline([1, 'XM'], [5, 'R'], [109, 'm'], [121, 'CXt'], [201, '|']);

      expectObservable(letters(e1.pipe(compactContext(engine)))).toBe(expected);
    });
  });

  it('cancels the summary call when unsubscribed mid-summary, emitting nothing more', () => {
    const summaries = scriptedModel([textTurn(SUMMARY, TWO_DELTAS)], {
      scheduler: testScheduler,
      latency: { firstMs: 5, perEventMs: 1 },
    });
    testScheduler.run(({ cold, expectObservable }) => {
      const engine = contextEngine({ model: summaries, contextWindow: 8_000 });
      const e1 = cold('-t 19ms |', { t: aTurn({ messages: longTranscript(), scheduler: testScheduler }) });
      const unsub = '^ 6ms !';

      expectObservable(letters(e1.pipe(compactContext(engine))), unsub).toBe(timeline([1, 'XM'], [6, 'm']));
    });
    expect(summaries.calls).toBe(1);
    expect(summaries.cancelled).toBe(1);
  });
});
