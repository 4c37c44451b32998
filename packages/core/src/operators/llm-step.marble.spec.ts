import { catchError, map, take, throwError, type Observable } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { aTurn, assistantMessage, finishEvent, marbleModel, textDelta, timeline } from '@rxagent/testing';
import { AuthError, NetworkError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { Turn } from '../turn/turn.js';
import { isTurn, type LoopItem } from '../turn/loop-item.js';
import { assistantText, userMessage } from '../messages/message-helpers.js';
import { llmStep } from './llm-step.js';

// Marble tests of llmStep alone: a fixture turn (`aTurn`) with a marble model, in the RxJS
// spec shape (`e1`, `e1subs`, `expected`). Items are summarized: turns hold functions.

const hello = assistantMessage([{ type: 'text', text: 'Hello' }], 'stop', {
  usage: { inputTokens: 3, outputTokens: 2 },
});
const values = { a: textDelta('Hel'), b: textDelta('lo'), f: finishEvent(hello) };

function eventSummary(event: AgentEvent): string {
  switch (event.type) {
    case 'message-start':
      return `start:${event.message.role}`;
    case 'message-update':
      return `update:${event.delta.text}`;
    case 'message-end':
      return `end:${event.message.role}:${assistantText(event.message)}`;
    case 'retry':
      return `retry:${event.attempt}:${event.delayMs}:${event.error.name}`;
    case 'warning':
      return `warning:${event.message}`;
    default:
      return event.type;
  }
}

function turnSummary(turn: Turn) {
  return {
    step: turn.step,
    assistant: turn.assistant && assistantText(turn.assistant),
    stopReason: turn.assistant?.stopReason,
    timestamp: turn.assistant?.timestamp,
    roles: turn.messages.map((m) => m.role),
    tokens: [turn.usage.inputTokens, turn.usage.outputTokens],
  };
}

const summarized = (source: Observable<LoopItem>) =>
  source.pipe(
    map((item) => (isTurn(item) ? turnSummary(item) : eventSummary(item))),
    catchError((error: unknown) =>
      throwError(() => ({ name: (error as Error).name, message: (error as Error).message })),
    ),
  );

describe('llmStep (marbles)', () => {
  let testScheduler: TestScheduler;

  beforeEach(() => {
    testScheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('streams message-start, an update per delta, message-end, then the turn with the message', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      model = marbleModel(cold, ['-a 9ms b 9ms (f|)'], values);
      const e1 = cold('-t|', { t: aTurn({ model }) });
      const e1subs = '^-!';
      const expected = timeline([2, 'SU'], [12, 'V'], [22, 'Et|']);

      expectObservable(summarized(e1.pipe(llmStep()))).toBe(expected, {
        S: 'start:assistant',
        U: 'update:Hel',
        V: 'update:lo',
        E: 'end:assistant:Hello',
        t: {
          step: 1,
          assistant: 'Hello',
          stopReason: 'stop',
          timestamp: 1, // the scheduler's time when the call started
          roles: ['user', 'assistant'],
          tokens: [3, 2],
        },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(model.requests.map((r) => r.messages)).toEqual([[userMessage('hi')]]);
    expect(model.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 1, unsubscribedFrame: 22 }]);
  });

  it('passes events before the turn through unchanged', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const model = marbleModel(cold, ['(f|)'], values);
      const warning: AgentEvent = { type: 'warning', message: 'upstream' };
      const e1 = cold('w-t 9ms |', { w: warning, t: aTurn({ model }) });
      const e1subs = '^ 11ms !';
      const expected = timeline([0, 'w'], [2, 'SEt'], [12, '|']);

      expectObservable(
        e1.pipe(
          llmStep(),
          map((item) => (item === warning ? 'same' : isTurn(item) ? 'turn' : item.type)),
        ),
      ).toBe(expected, { w: 'same', S: 'message-start', E: 'message-end', t: 'turn' });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('retries a retryable failure after its backoff, in virtual time (the new attempt starts a new message)', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      model = marbleModel(
        cold,
        [{ marble: '-a 9ms #', error: new NetworkError('socket hang up') }, '-b 9ms (f|)'],
        values,
      );
      const turn = aTurn({ model, config: { retryBackoff: { initialDelayMs: 100, jitter: 0 } } });
      const e1 = cold('-t|', { t: turn });
      const e1subs = '^-!';
      // attempt 1 at frame 1 fails at 12; the retry waits 100 ms; attempt 2 runs from 112.
      const expected = timeline([2, 'SU'], [12, 'R'], [113, 'SV'], [123, 'Et|']);

      expectObservable(summarized(e1.pipe(llmStep()))).toBe(expected, {
        S: 'start:assistant',
        U: 'update:Hel',
        R: 'retry:1:100:NetworkError',
        V: 'update:lo',
        E: 'end:assistant:Hello',
        t: {
          step: 1,
          assistant: 'Hello',
          stopReason: 'stop',
          timestamp: 112,
          roles: ['user', 'assistant'],
          tokens: [3, 2],
        },
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(model.streams.map((s) => s.subscriptions)).toEqual([
      [{ subscribedFrame: 1, unsubscribedFrame: 12 }],
      [{ subscribedFrame: 112, unsubscribedFrame: 123 }],
    ]);
  });

  it('honours maxRetries from its options: RetriesExhaustedError once they are spent', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const down = new NetworkError('down');
      const model = marbleModel(cold, [
        { marble: '-#', error: down },
        { marble: '-#', error: down },
      ]);
      const e1 = cold('-t|', {
        t: aTurn({ model, config: { retryBackoff: { initialDelayMs: 10, jitter: 0 } } }),
      });
      const expected = timeline([2, 'R'], [13, '#']);

      expectObservable(summarized(e1.pipe(llmStep(undefined, { maxRetries: 1 })))).toBe(
        expected,
        { R: 'retry:1:10:NetworkError' },
        { name: 'RetriesExhaustedError', message: expect.any(String) },
      );
    });
  });

  it('fails at once with the typed error of a non-retryable failure (one call, no retry)', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      model = marbleModel(cold, [{ marble: '--#', error: new AuthError('bad key') }]);
      const e1 = cold('-t|', { t: aTurn({ model }) });
      const e1subs = '^-!';
      const expected = '---#';

      expectObservable(summarized(e1.pipe(llmStep()))).toBe(expected, undefined, {
        name: 'AuthError',
        message: 'bad key',
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(model.requests).toHaveLength(1);
  });

  it('tears the model stream down when unsubscribed mid-stream', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      model = marbleModel(cold, ['-a 9ms b 9ms (f|)'], values);
      const e1 = cold('-t|', { t: aTurn({ model }) });
      const e1subs = '^-!';
      const unsub = '^ 9ms !';
      const expected = timeline([2, 'SU']);

      expectObservable(summarized(e1.pipe(llmStep())), unsub).toBe(expected, {
        S: 'start:assistant',
        U: 'update:Hel',
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(model.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 1, unsubscribedFrame: 10 }]);
  });

  it('tears the model stream down when unsubscribed synchronously from inside next (take(1))', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      model = marbleModel(cold, ['-a 9ms b 9ms (f|)'], values);
      const e1 = cold('-t|', { t: aTurn({ model }) });
      const e1subs = '^-!';
      const expected = '--(S|)';

      expectObservable(summarized(e1.pipe(llmStep(), take(1)))).toBe(expected, { S: 'start:assistant' });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
    expect(model.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 1, unsubscribedFrame: 2 }]);
    expect(model.requests).toHaveLength(1);
  });

  it('repairs the transcript before the call and says so with a warning', () => {
    let model!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable }) => {
      model = marbleModel(cold, ['(f|)'], values);
      const orphan = assistantMessage(
        [{ type: 'tool-call', id: 'c1', name: 'read', args: {} }],
        'tool-calls',
      );
      const e1 = cold('-t 9ms |', { t: aTurn({ model, messages: [userMessage('hi'), orphan] }) });
      // A synchronous model: everything at the turn's frame; the output completes with the source.
      const expected = timeline([1, 'WSEt'], [11, '|']);

      expectObservable(summarized(e1.pipe(llmStep()))).toBe(expected, {
        W: expect.stringContaining('warning:Repaired the transcript before step 1'),
        S: 'start:assistant',
        E: 'end:assistant:Hello',
        t: expect.objectContaining({ roles: ['user', 'assistant', 'assistant'] }),
      });
    });
    // The call got the repaired copy (a synthetic result for c1); the turn's transcript is unchanged.
    expect(model.requests[0]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('fails with PipelineError on a turn that already has the model message', () => {
    testScheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const e1 = cold('-t|', { t: aTurn({ assistant: hello }) });
      const e1subs = '^!';
      const expected = '-#';

      expectObservable(summarized(e1.pipe(llmStep()))).toBe(expected, undefined, {
        name: 'PipelineError',
        message: expect.stringContaining("llmStep() received a turn that already has the model's message"),
      });
      expectSubscriptions(e1.subscriptions).toBe(e1subs);
    });
  });

  it('fails loudly when the fixture turn has no model', () => {
    testScheduler.run(({ cold, expectObservable }) => {
      const e1 = cold('-t|', { t: aTurn() });

      expectObservable(summarized(e1.pipe(llmStep()))).toBe('-#', undefined, {
        name: 'ProviderError',
        message: expect.stringContaining('aTurn() was given no model'),
      });
    });
  });

  it('calls the model given to it instead of the run model', () => {
    let given!: ReturnType<typeof marbleModel>;
    testScheduler.run(({ cold, expectObservable }) => {
      given = marbleModel(cold, ['(f|)'], values, { modelId: 'given' });
      const e1 = cold('-t 9ms |', { t: aTurn() }); // the run's model would fail the call

      expectObservable(
        e1.pipe(
          llmStep(given),
          map((item) => (isTurn(item) ? 'turn' : item.type)),
        ),
      ).toBe(timeline([1, 'SEt'], [11, '|']), { S: 'message-start', E: 'message-end', t: 'turn' });
    });
    expect(given.requests).toHaveLength(1);
  });
});
