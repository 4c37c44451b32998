import { asyncScheduler, firstValueFrom, map, materialize, of, queueScheduler, Subject, toArray } from 'rxjs';
import { z } from 'zod';
import {
  assistantText,
  MessageQueue,
  stopSignal,
  tool,
  Turn,
  userMessage,
  type ToolResultMessage,
} from '@rxagent/core';
import { assistantMessage } from './model-builders.js';
import { createTestScheduler } from './test-scheduler.js';
import { aTurn, testRunFacts } from './turn-fixture.js';

const weather = tool({
  name: 'weather',
  description: 'Weather for a city',
  parameters: z.object({ city: z.string() }),
  execute: ({ city }) => `${city}: 21 °C`,
});

describe('aTurn', () => {
  it('is a real Turn: step 1 of run "test-run" over [userMessage("hi")], no tools', () => {
    const turn = aTurn();
    expect(Turn.is(turn)).toBe(true);
    expect(turn).toBeInstanceOf(Turn);
    expect(turn.step).toBe(1);
    expect(turn.messages).toEqual([userMessage('hi')]);
    expect(turn.modelMessages).toEqual([userMessage('hi')]);
    expect(turn.steps).toEqual([]);
    expect(turn.assistant).toBeUndefined();
    expect(turn.toolResults).toBeUndefined();
    expect(turn.stop).toBeUndefined();
    expect(turn.run.runId).toBe('test-run');
    expect(turn.run.tools.size).toBe(0);
    expect(turn.run.toolSpecs).toEqual([]);
    expect(turn.run.scheduler).toBe(asyncScheduler);
    expect(turn.run.signal.aborted).toBe(false);
    expect(turn.run.priorLength).toBe(1);
  });

  it('has a default model that fails the call with a message saying to pass one', async () => {
    const { model } = aTurn().run;
    const notes = await firstValueFrom(model.stream({ messages: [] }).pipe(materialize(), toArray()));
    expect(notes).toHaveLength(1);
    expect(notes[0]?.kind).toBe('E');
    expect(String(notes[0]?.error)).toContain('aTurn() was given no model');
  });

  it('takes the tools (and their specs for the model), the settings from the config, and the scheduler', () => {
    const turn = aTurn({
      tools: [weather],
      config: { maxRetries: 1, system: 'Be brief.' },
      scheduler: queueScheduler,
    });
    expect([...turn.run.tools.keys()]).toEqual(['weather']);
    expect(turn.run.toolSpecs).toEqual([
      expect.objectContaining({ name: 'weather', description: 'Weather for a city' }),
    ]);
    expect(turn.run.settings).toMatchObject({ maxRetries: 1, request: { system: 'Be brief.' } });
    expect(turn.run.settings.tools.concurrency).toBe(8);
    expect(turn.run.scheduler).toBe(queueScheduler);
    expect(() => aTurn({ tools: [weather, weather] })).toThrow('two tools are named "weather"');
  });

  it('attaches the assistant message, the tool results and the stop in that order', () => {
    const assistant = assistantMessage(
      [{ type: 'tool-call', id: 'c1', name: 'weather', args: { city: 'Oslo' } }],
      'tool-calls',
      {
        usage: { inputTokens: 7, outputTokens: 3 },
      },
    );
    const result: ToolResultMessage = {
      role: 'tool',
      toolCallId: 'c1',
      toolName: 'weather',
      content: [{ type: 'text', text: 'Oslo: 21 °C' }],
      isError: false,
      timestamp: 0,
    };
    const stop = stopSignal('predicate', 'enough');
    const turn = aTurn({ assistant, toolResults: [result], stop });
    expect(turn.assistant).toBe(assistant);
    expect(turn.toolResults).toEqual([result]);
    expect(turn.stop).toBe(stop);
    expect(turn.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(turn.usage).toMatchObject({ inputTokens: 7, outputTokens: 3 });
    expect(turn.stepResult()).toMatchObject({ step: 1, toolResults: [result], finishReason: 'tool-calls' });
  });

  it('makes a later step with placeholder steps before it', () => {
    const turn = aTurn({ step: 3, messages: [userMessage('a'), userMessage('b')] });
    expect(turn.step).toBe(3);
    expect(turn.steps.map((s) => s.step)).toEqual([1, 2]);
    expect(turn.messages).toEqual([userMessage('a'), userMessage('b')]);
    expect(() => aTurn({ step: 0 })).toThrow('step must be an integer >= 1');
  });

  it('shares one run between turns with { run }', () => {
    const run = testRunFacts({ tools: [weather] });
    const first = aTurn({ run });
    const second = aTurn({ run, step: 2, assistant: assistantMessage([{ type: 'text', text: 'Done.' }]) });
    expect(first.run).toBe(run);
    expect(second.run).toBe(run);
    expect(assistantText(second.assistant)).toBe('Done.');
    expect(() => aTurn({ run, tools: [weather] })).toThrow(
      'aTurn: pass tools to testRunFacts(), not next to { run }.',
    );
  });

  it('runs in virtual time inside TestScheduler.run (startedAt, scheduler.now())', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const turn = aTurn();
      expect(turn.run.startedAt).toBe(0);
      expectObservable(cold('5ms t|', { t: turn }).pipe(map((t) => t.run.scheduler.now()))).toBe('5ms t|', {
        t: 5,
      });
    });
  });
});

describe('testRunFacts', () => {
  it('attach: a MessageQueue as it is; an Observable subscribed once into a queue', () => {
    const run = testRunFacts();
    const queue = new MessageQueue();
    expect(run.attach(queue)).toBe(queue);
    const input$ = new Subject<string>();
    const fed = run.attach(input$);
    expect(run.attach(input$)).toBe(fed);
    expect(input$.observed).toBe(true);
    input$.next('one');
    input$.next('two');
    expect(fed.drain()).toEqual(['one', 'two']);
  });

  it('close() unsubscribes the attached sources; a failing source becomes a warning', () => {
    const run = testRunFacts();
    const input$ = new Subject<string>();
    run.attach(input$);
    run.attach(
      of('x').pipe(
        map(() => {
          throw new Error('feed down');
        }),
      ),
    );
    expect(run.warnings).toEqual(['A message source of the run failed and was detached: feed down']);
    run.close();
    expect(input$.observed).toBe(false);
  });

  it('abort() aborts the run signal', () => {
    const run = testRunFacts();
    const reasons: unknown[] = [];
    run.signal.addEventListener('abort', () => reasons.push(run.signal.reason));
    run.abort('cancelled');
    expect(run.signal.aborted).toBe(true);
    expect(reasons).toEqual(['cancelled']);
  });

  it('takes runId and priorLength (default 0 alone, the messages with aTurn)', () => {
    expect(testRunFacts().priorLength).toBe(0);
    expect(testRunFacts({ runId: 'r1', priorLength: 4 })).toMatchObject({ runId: 'r1', priorLength: 4 });
    expect(testRunFacts({ config: { runId: 'r2' } }).runId).toBe('r2');
    expect(aTurn({ messages: [], priorLength: 0 }).run.priorLength).toBe(0);
  });
});
