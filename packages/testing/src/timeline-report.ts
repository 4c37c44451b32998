import { RxAgentError } from '@rxagent/core';
import { deepEqual } from './deep-equal.js';

/** A TestScheduler message: a notification at a frame. */
interface FrameMessage {
  frame: number;
  notification: { kind: 'N' | 'E' | 'C'; value?: unknown; error?: unknown };
}

function isMessages(value: unknown): value is FrameMessage[] {
  return (
    Array.isArray(value) &&
    value.every((m) => typeof m === 'object' && m !== null && 'frame' in m && 'notification' in m)
  );
}

function symbol(n: FrameMessage['notification']): string {
  if (n.kind === 'C') return '|';
  if (n.kind === 'E') return '#';
  if (typeof n.value === 'string' && n.value.length === 1) return n.value;
  const text = JSON.stringify(n.value) ?? String(n.value);
  return `{${text.length > 40 ? `${text.slice(0, 37)}...` : text}}`;
}

/** Frame → the letters at it, in order. */
function byFrame(messages: FrameMessage[]): Map<number, string> {
  const frames = new Map<number, string>();
  for (const m of messages) frames.set(m.frame, (frames.get(m.frame) ?? '') + symbol(m.notification));
  return frames;
}

/**
 * Frames and letters of an expected and an actual timeline side by side, the differing frames
 * marked — what a marble assertion failure should say.
 *
 * @example
 * console.log(explainTimeline(actual, expected));
 * // frame  expected  actual
 * //     0  ATSE      ATSE
 * //    10  SU        SUU      <-
 */
export function explainTimeline(actual: unknown, expected: unknown): string {
  if (!isMessages(actual) || !isMessages(expected)) {
    return `expected ${JSON.stringify(expected)}\nactual   ${JSON.stringify(actual)}`;
  }
  const want = byFrame(expected);
  const got = byFrame(actual);
  const frames = [...new Set([...want.keys(), ...got.keys()])].sort((a, b) => a - b);
  const width = Math.max(10, ...[...want.values()].map((l) => l.length + 2));
  const rows = frames.map((frame) => {
    const e = want.get(frame) ?? '';
    const a = got.get(frame) ?? '';
    return `${String(frame).padStart(5)}  ${e.padEnd(width)}${a.padEnd(width)}${e === a ? '' : '<-'}`.trimEnd();
  });
  const same = frames.every((f) => want.get(f) === got.get(f));
  const note = same ? ['(same letters at the same frames: the values behind them differ)'] : [];
  return [`frame  ${'expected'.padEnd(width)}actual`, ...rows, ...note].join('\n');
}

/**
 * A timeline assertion failed: `message` shows frames and letters side by side.
 *
 * @example
 * catch (e) { if (TimelineMismatchError.isInstance(e)) console.error(e.message); }
 */
export class TimelineMismatchError extends RxAgentError {
  static override readonly kind: string = 'TimelineMismatchError';
}

/**
 * The assertion `createTestScheduler` uses outside jest: deep equality, and on a mismatch a
 * `TimelineMismatchError` with `explainTimeline`'s side-by-side table.
 *
 * @example
 * const scheduler = new TestScheduler(assertTimeline);
 */
export function assertTimeline(actual: unknown, expected: unknown): void {
  if (deepEqual(actual, expected)) return;
  throw new TimelineMismatchError(`The timelines differ:\n${explainTimeline(actual, expected)}`);
}
