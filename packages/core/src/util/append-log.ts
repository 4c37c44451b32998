const EMPTY: readonly never[] = Object.freeze([]);

/**
 * An immutable list with O(1) amortised append, for transcripts that grow by one message at a
 * time over thousands of steps. Each `AppendLog` is a snapshot: `append` returns a new log and
 * never changes what an older one holds. Logs share one backing array while they are appended
 * in a line; appending to an older snapshot (a fork) copies its prefix once.
 *
 * `view()` is the snapshot as a read-only array: `Array.isArray`, `length`, indexing,
 * iteration, `map`/`filter`/`slice`, spread and `JSON.stringify` all work, in O(1) to make.
 * Writes to it throw in strict code. (`structuredClone` needs a real array: `[...view]`.)
 *
 * @example
 * const a = AppendLog.of([m1]);
 * const b = a.append(m2);
 * a.view().length; // 1 — b's append did not change a
 */
export class AppendLog<T> {
  // Every run starts some logs empty (its steps, a fresh transcript): they share this one.
  private static readonly EMPTY_LOG = new AppendLog<never>(EMPTY as never[], 0);
  private cachedView?: readonly T[];

  private constructor(
    private readonly buffer: T[],
    /** How many items of `buffer` this snapshot holds. */
    readonly length: number,
  ) {}

  /** A log holding a copy of `items` (the one empty log when there are none). */
  static of<T>(items: readonly T[] = []): AppendLog<T> {
    return items.length === 0 ? AppendLog.EMPTY_LOG : new AppendLog(items.slice(), items.length);
  }

  /** @internal A log over `items`, which the caller made for it and never changes again. */
  static owning<T>(items: T[]): AppendLog<T> {
    return items.length === 0 ? AppendLog.EMPTY_LOG : new AppendLog(items, items.length);
  }

  /** A new log with `items` after this one's. */
  append(...items: T[]): AppendLog<T> {
    if (items.length === 0) return this;
    let buffer = this.buffer;
    // Someone appended to this snapshot before (or it is the one empty log every run shares):
    // a store of its own, made to size (a pending run keeps it), instead of overwriting.
    if (buffer.length !== this.length || buffer === (EMPTY as readonly T[])) {
      buffer = this.length === 0 ? items : buffer.slice(0, this.length).concat(items);
      return new AppendLog(buffer, buffer.length);
    }
    for (const item of items) buffer.push(item);
    return new AppendLog(buffer, buffer.length);
  }

  /** The snapshot of the first `length` items (shares the store). */
  prefix(length: number): AppendLog<T> {
    return length >= this.length ? this : new AppendLog(this.buffer, Math.max(0, length));
  }

  /** The item at `index` (undefined outside the snapshot). */
  at(index: number): T | undefined {
    const i = index < 0 ? this.length + index : index;
    return i >= 0 && i < this.length ? this.buffer[i] : undefined;
  }

  /** The last item. */
  last(): T | undefined {
    return this.length > 0 ? this.buffer[this.length - 1] : undefined;
  }

  /** Items `from` (inclusive) to the end of the snapshot, as a new array. */
  sliceFrom(from: number): T[] {
    return this.buffer.slice(from, this.length);
  }

  /** The snapshot as a read-only array view (made once per log). */
  view(): readonly T[] {
    if (this.cachedView) return this.cachedView;
    const view =
      this.length === 0
        ? EMPTY
        : (new Proxy([] as T[], new ViewHandler(this, this.buffer, this.length)) as readonly T[]);
    this.cachedView = view;
    return this.cachedView;
  }

  /** True when both logs hold the same backing store (an append line, no fork). */
  sharesStoreWith(other: AppendLog<T>): boolean {
    return this.buffer === other.buffer;
  }

  /** @internal The backing store (read-only use: incremental checks keyed by it). */
  get store(): readonly T[] {
    return this.buffer;
  }
}

// The key under which a view answers with the log it shows (not an index, not enumerable).
const VIEW_LOG = Symbol('rxagent.appendLog');

/**
 * The log a `view()` shows, so that appending to a view costs O(1) amortised; undefined for a
 * plain array (and for the empty view, which any log can take over).
 *
 * @example
 * const log = logOfView(state.messages) ?? AppendLog.of(state.messages);
 */
export function logOfView<T>(view: readonly T[]): AppendLog<T> | undefined {
  return (view as unknown as { [VIEW_LOG]?: AppendLog<T> })[VIEW_LOG];
}

function indexOf(key: string | symbol): number {
  // Engine-made index keys are canonical ("0", "12"): a digit first, then a whole number.
  if (typeof key !== 'string' || key.length === 0) return -1;
  const first = key.charCodeAt(0);
  if (first < 48 || first > 57) return -1;
  const n = +key;
  return n === Math.floor(n) ? n : -1;
}

/**
 * The traps of a view: length and indexes from the snapshot, no writes. Whole-array work
 * (methods, iteration, `JSON.stringify`) runs on a real frozen copy made once per view, at
 * native speed: a consumer that reads the whole transcript pays one copy, one that does not
 * read it pays nothing.
 */
class ViewHandler<T> implements ProxyHandler<T[]> {
  private real?: readonly T[];

  constructor(
    private readonly log: AppendLog<T>,
    private readonly buffer: readonly T[],
    private readonly length: number,
  ) {}

  private materialized(): readonly T[] {
    return (this.real ??= Object.freeze(this.buffer.slice(0, this.length)));
  }

  get(target: T[], key: string | symbol, receiver: unknown): unknown {
    if (key === 'length') return this.length;
    const i = indexOf(key);
    if (i >= 0) return i < this.length ? this.buffer[i] : undefined;
    if (key === VIEW_LOG) return this.log;
    if (key === 'toJSON') return () => this.materialized();
    const value: unknown = Reflect.get(target, key, receiver);
    if (typeof value !== 'function' || key === 'constructor') return value;
    const real = this.materialized();
    return (value as (...args: unknown[]) => unknown).bind(real);
  }

  has(target: T[], key: string | symbol): boolean {
    const i = indexOf(key);
    if (i >= 0) return i < this.length;
    return Reflect.has(target, key);
  }

  ownKeys(): (string | symbol)[] {
    const keys: string[] = [];
    for (let i = 0; i < this.length; i++) keys.push(String(i));
    keys.push('length');
    return keys;
  }

  getOwnPropertyDescriptor(target: T[], key: string | symbol): PropertyDescriptor | undefined {
    if (key === 'length')
      return { value: this.length, writable: true, enumerable: false, configurable: false };
    const i = indexOf(key);
    if (i >= 0) {
      return i < this.length
        ? { value: this.buffer[i], writable: false, enumerable: true, configurable: true }
        : undefined;
    }
    return Reflect.getOwnPropertyDescriptor(target, key);
  }

  set(): boolean {
    return false;
  }

  deleteProperty(): boolean {
    return false;
  }

  defineProperty(): boolean {
    return false;
  }
}
