import { isDeepStrictEqual } from 'node:util';
import { RateLimitError } from '@rxagent/core';
import { deepEqual } from './deep-equal.js';

// assertTimeline compared with Node's util.isDeepStrictEqual, which browsers lack: deepEqual
// must decide every case a marble timeline can hold the same way.
const event = { type: 'turn-start', step: 1 };
const cycle: { self?: unknown } = {};
cycle.self = cycle;
const otherCycle: { self?: unknown } = {};
otherCycle.self = otherCycle;

const cases: [string, unknown, unknown][] = [
  ['equal primitives', 1, 1],
  ['different primitives', 1, 2],
  ['NaN and NaN', Number.NaN, Number.NaN],
  ['0 and -0', 0, -0],
  ['number and string', 1, '1'],
  ['null and undefined', null, undefined],
  ['equal events', { ...event }, { ...event }],
  ['events with another step', event, { ...event, step: 2 }],
  ['a key set to undefined and a missing key', { a: undefined }, {}],
  ['keys in another order', { a: 1, b: 2 }, { b: 2, a: 1 }],
  ['nested arrays', [{ n: [1, 2] }], [{ n: [1, 2] }]],
  ['arrays of other lengths', [1, 2], [1, 2, 3]],
  ['an array and an object', [1], { 0: 1 }],
  ['a plain object and a null-prototype one', {}, Object.create(null)],
  ['equal dates', new Date(5), new Date(5)],
  ['other dates', new Date(5), new Date(6)],
  ['equal regexps', /a/g, /a/g],
  ['regexps with other flags', /a/g, /a/i],
  [
    'equal errors',
    new RateLimitError('slow', { retryAfterMs: 5 }),
    new RateLimitError('slow', { retryAfterMs: 5 }),
  ],
  ['errors with other messages', new Error('a'), new Error('b')],
  ['errors of other classes', new TypeError('a'), new RangeError('a')],
  ['equal sets', new Set([1, { a: 1 }]), new Set([{ a: 1 }, 1])],
  ['other sets', new Set([1]), new Set([2])],
  ['equal maps', new Map([[{ k: 1 }, 'v']]), new Map([[{ k: 1 }, 'v']])],
  ['maps with other values', new Map([['k', 1]]), new Map([['k', 2]])],
  ['boxed numbers', Object(1), Object(1)],
  ['other boxed strings', Object('a'), Object('b')],
  ['equal cycles', cycle, otherCycle],
  ['symbol keys', { [Symbol.for('k')]: 1 }, { [Symbol.for('k')]: 2 }],
  [
    'TestScheduler messages',
    [{ frame: 0, notification: { kind: 'N', value: 'A', error: undefined } }],
    [{ frame: 0, notification: { kind: 'N', value: 'A', error: undefined } }],
  ],
  [
    'TestScheduler messages at other frames',
    [{ frame: 0, notification: { kind: 'C', value: undefined, error: undefined } }],
    [{ frame: 10, notification: { kind: 'C', value: undefined, error: undefined } }],
  ],
];

describe('deepEqual', () => {
  it.each(cases)('decides %s as util.isDeepStrictEqual does', (_name, a, b) => {
    expect(deepEqual(a, b)).toBe(isDeepStrictEqual(a, b));
    expect(deepEqual(b, a)).toBe(isDeepStrictEqual(b, a));
  });

  it('tells equal and different values apart (the cases above are not all one answer)', () => {
    const answers = new Set(cases.map(([, a, b]) => deepEqual(a, b)));
    expect(answers).toEqual(new Set([true, false]));
  });
});
