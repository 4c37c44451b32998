import { deepStrictEqual } from 'node:assert';
import { TestScheduler } from 'rxjs/testing';

/**
 * A `TestScheduler` that asserts with jest's `expect(…).toEqual` when jest is present (else
 * node's `deepStrictEqual`).
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
    assertEqual ??
    (jestExpect
      ? (a: unknown, e: unknown) => jestExpect(a).toEqual(e)
      : (a: unknown, e: unknown) => deepStrictEqual(a, e));
  return new TestScheduler(assert);
}
