/**
 * Which calls a limiter admits first: every waiting `interactive` call goes before any
 * `background` one.
 *
 * @example
 * rateLimited(model, limits, { key: runId, priority: 'background' });
 */
export type LimiterPriority = 'interactive' | 'background';

/** The priorities, first served first. */
export const PRIORITIES: readonly LimiterPriority[] = ['interactive', 'background'];

/**
 * What the queue needs of a waiting call.
 *
 * @example
 * const entry: QueueEntry = { key: 'run-1', priority: 'interactive' };
 */
export interface QueueEntry {
  readonly key: string | symbol;
  readonly priority: LimiterPriority;
}

/**
 * The waiting calls of a limiter: by priority, then round-robin between keys (one call of each
 * key in turn, so a run with many calls waiting does not hold back a run with one), first in
 * first out within a key. A key's place in the round is a `Map`'s insertion order: taking a
 * call moves its key to the back.
 *
 * @example
 * const queue = new AdmissionQueue<QueueEntry>();
 * queue.add({ key: 'a', priority: 'interactive' });
 * queue.take(); // the call of 'a'
 */
export class AdmissionQueue<T extends QueueEntry> {
  private readonly lanes = new Map<LimiterPriority, Map<string | symbol, T[]>>(
    PRIORITIES.map((p) => [p, new Map<string | symbol, T[]>()]),
  );
  private readonly counts = new Map<LimiterPriority, number>(PRIORITIES.map((p) => [p, 0]));

  /** How many calls of `priority` wait (all when not given). */
  size(priority?: LimiterPriority): number {
    if (priority) return this.counts.get(priority) ?? 0;
    let n = 0;
    for (const count of this.counts.values()) n += count;
    return n;
  }

  add(entry: T): void {
    const lane = this.lanes.get(entry.priority)!;
    const waiting = lane.get(entry.key);
    if (waiting) waiting.push(entry);
    else lane.set(entry.key, [entry]);
    this.counts.set(entry.priority, this.size(entry.priority) + 1);
  }

  /** The call whose turn it is, left in the queue. */
  peek(): T | undefined {
    for (const lane of this.lanes.values()) {
      for (const waiting of lane.values()) return waiting[0];
    }
    return undefined;
  }

  /** Removes the call whose turn it is and moves its key to the back of the round. */
  take(): T | undefined {
    const entry = this.peek();
    if (!entry) return undefined;
    const lane = this.lanes.get(entry.priority)!;
    const waiting = lane.get(entry.key)!;
    waiting.shift();
    lane.delete(entry.key);
    if (waiting.length > 0) lane.set(entry.key, waiting);
    this.counts.set(entry.priority, this.size(entry.priority) - 1);
    return entry;
  }

  /** Removes a call that stopped waiting; false when it was not in the queue. */
  remove(entry: T): boolean {
    const lane = this.lanes.get(entry.priority)!;
    const waiting = lane.get(entry.key);
    const at = waiting ? waiting.indexOf(entry) : -1;
    if (!waiting || at < 0) return false;
    waiting.splice(at, 1);
    if (waiting.length === 0) lane.delete(entry.key);
    this.counts.set(entry.priority, this.size(entry.priority) - 1);
    return true;
  }
}
