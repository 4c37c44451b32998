import { RunLogFormatError } from './replay-errors.js';

/**
 * Lines of a log kept as text, indexed by a number (a model call's), parsed on first use: a
 * fork reads only the snapshots, so the requests and answers of a long log cost it nothing but
 * the scan. A damaged line is a `RunLogFormatError` naming it when it is first used. @internal
 */
export class LazyLines<T> {
  private readonly texts: (string | undefined)[] = [];
  private readonly numbers: number[] = [];
  private readonly parsed: (T | undefined)[] = [];

  constructor(private readonly read: (line: unknown) => T) {}

  /** Keeps line `number` (1-based) of the log as entry `index`. */
  keep(index: number, text: string, number: number): void {
    this.texts[index] = text;
    this.numbers[index] = number;
    this.parsed[index] = undefined;
  }

  /** How many entries there are (the highest index plus one). */
  get length(): number {
    return this.texts.length;
  }

  /** Entry `index`, parsed (undefined when the log has none). */
  get(index: number): T | undefined {
    const done = this.parsed[index];
    if (done !== undefined) return done;
    const text = this.texts[index];
    if (text === undefined) return undefined;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      throw new RunLogFormatError(
        `Line ${this.numbers[index]} of the run log is not JSON: the log is damaged there.`,
      );
    }
    const value = this.read(line);
    this.parsed[index] = value;
    return value;
  }
}

/**
 * The call number of a request or response line written by `recordRun` (its key order: kind, at,
 * call), read without parsing the line; undefined when the line is not in that form.
 *
 * @example
 * callOf('{"kind":"request","at":12,"call":3,"request":{…}}'); // 3
 */
export function callOf(text: string): number | undefined {
  const match = /^\{"kind":"(?:request|response)","at":-?[\d.e+-]+,"call":(\d+),/.exec(text);
  return match ? Number(match[1]) : undefined;
}
