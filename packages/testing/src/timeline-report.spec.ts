import { runAgent } from '@rxagent/core';
import { TestScheduler } from 'rxjs/testing';
import { toMarbleLetters } from './marble-letters.js';
import { textTurn } from './model-builders.js';
import { scriptedModel } from './scripted-model.js';
import { assertTimeline, explainTimeline, TimelineMismatchError } from './timeline-report.js';

describe('timeline assertions outside jest', () => {
  it('fail with frames and letters side by side, the differing frames marked', () => {
    // The assertion a TestScheduler gets where there is no jest `expect`.
    const scheduler = new TestScheduler(assertTimeline);
    let failure: unknown;
    try {
      scheduler.run(({ expectObservable }) => {
        const model = scriptedModel([textTurn('Hi there', { chunks: 2 })], { latency: 10 });
        expectObservable(runAgent({ model, prompt: 'hi' }).pipe(toMarbleLetters())).toBe(
          '(ATSE) 4ms (SU) 9ms (ENZ|)',
        );
      });
    } catch (error) {
      failure = error;
    }
    expect(TimelineMismatchError.isInstance(failure)).toBe(true);
    const lines = (failure as Error).message.split('\n');
    expect(lines[0]).toBe('The timelines differ:');
    expect(lines[1]).toMatch(/^frame\s+expected\s+actual$/);
    expect(lines).toContainEqual(expect.stringMatching(/^\s+0\s+ATSE\s+ATSE$/));
    expect(lines.some((l) => l.endsWith('<-'))).toBe(true);
  });

  it('passes equal timelines', () => {
    const messages = [{ frame: 0, notification: { kind: 'N' as const, value: 'A' } }];
    expect(() =>
      assertTimeline(messages, [{ frame: 0, notification: { kind: 'N' as const, value: 'A' } }]),
    ).not.toThrow();
  });

  it('shows values that are not letters as short JSON', () => {
    const table = explainTimeline(
      [{ frame: 2, notification: { kind: 'N', value: { step: 1 } } }],
      [
        { frame: 2, notification: { kind: 'N', value: { step: 2 } } },
        { frame: 3, notification: { kind: 'C' } },
      ],
    );
    expect(table.split('\n')).toEqual([
      'frame  expected      actual',
      '    2  {{"step":2}}  {{"step":1}}  <-',
      '    3  |                           <-',
    ]);
  });
});
