import { TestScheduler } from 'rxjs/testing';
import { assertTimeline } from './timeline-report.js';

/**
 * A `TestScheduler` that asserts with jest's `expect(…).toEqual` when jest is present (else
 * `assertTimeline`: deep equality, failing with frames and letters side by side).
 *
 * @example
 * const scheduler = createTestScheduler();
 * scheduler.run(({ cold, expectObservable }) => { … });
 */
export function createTestScheduler(
  assertEqual?: (actual: unknown, expected: unknown) => void,
): TestScheduler {
  const jestExpect = (globalThis as { expect?: (v: unknown) => { toEqual(e: unknown): void } }).expect;
  const assert =
    assertEqual ?? (jestExpect ? (a: unknown, e: unknown) => jestExpect(a).toEqual(e) : assertTimeline);
  return new TestScheduler(assert);
}
