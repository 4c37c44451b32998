import { z } from 'zod';
import {
  assistantMessage,
  createTestScheduler,
  finishEvent,
  marbleModel,
  textDelta,
  timeline,
  toMarbleLetters,
} from '@rxagent/testing';
import type { ModelEvent } from '../model/model-event.js';
import { runAgent } from '../loop/run-agent.js';

const answer = '{"city":"Oslo","tempC":-3}';
const values: Record<string, ModelEvent> = {
  a: textDelta('{"city":"Os'),
  b: textDelta('lo",'),
  c: textDelta('"tempC":-3}'),
  f: finishEvent(assistantMessage([{ type: 'text', text: answer }])),
  x: textDelta('{"city":4}'),
  y: finishEvent(assistantMessage([{ type: 'text', text: '{"city":4}' }])),
};
const output = z.object({ city: z.string(), tempC: z.number() });

describe('structured output in virtual time', () => {
  it('emits an output-update after each delta that changes the partial object, then agent-end', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms a 9ms b 9ms c 9ms (f|)'], values);
      const run$ = runAgent({ model, prompt: 'Weather?', output, outputMode: 'native' });
      const expected = timeline([0, 'ATSE'], [10, 'SUO'], [20, 'UO'], [30, 'UO'], [40, 'ENZ|']);
      expectObservable(run$.pipe(toMarbleLetters())).toBe(expected);
    });
  });

  it('sends an invalid answer back at once and takes the next one', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms x 9ms (y|)', '10ms a 9ms (bcf|)'], values);
      const run$ = runAgent({ model, prompt: 'Weather?', output, outputMode: 'native' });
      // The feedback is the second turn's opening user message (S E after T).
      const expected = timeline([0, 'ATSE'], [10, 'SUO'], [20, 'ENTSE'], [30, 'SUO'], [40, 'UOUOENZ|']);
      expectObservable(run$.pipe(toMarbleLetters())).toBe(expected);
    });
  });
});
