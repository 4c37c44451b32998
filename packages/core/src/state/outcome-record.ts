import type { ToolOutcome } from '../events/agent-event.js';

/** Outcomes in the order they came, shared by the records of one run's states. */
class OutcomeStore {
  readonly ids: string[] = [];
  readonly outcomes: ToolOutcome[] = [];
  /** Call id → its position (ids are unique per run: each appears once). */
  readonly at = new Map<string, number>();

  push(id: string, outcome: ToolOutcome): void {
    this.at.set(id, this.ids.length);
    this.ids.push(id);
    this.outcomes.push(outcome);
  }
}

// The key under which a record answers with its store and length (a symbol: never a call id).
const RECORD = Symbol('rxagent.outcomeRecord');

interface RecordOf {
  store: OutcomeStore;
  length: number;
}

/** A read-only record of the first `length` outcomes of a store. */
class RecordHandler implements ProxyHandler<Record<string, ToolOutcome>> {
  constructor(private readonly of: RecordOf) {}

  private position(key: string | symbol): number | undefined {
    if (typeof key !== 'string') return undefined;
    const at = this.of.store.at.get(key);
    return at !== undefined && at < this.of.length ? at : undefined;
  }

  get(_target: Record<string, ToolOutcome>, key: string | symbol): unknown {
    if (key === RECORD) return this.of;
    const at = this.position(key);
    if (at !== undefined) return this.of.store.outcomes[at];
    return (Object.prototype as Record<string | symbol, unknown>)[key];
  }

  has(_target: Record<string, ToolOutcome>, key: string | symbol): boolean {
    return this.position(key) !== undefined;
  }

  ownKeys(): string[] {
    return this.of.store.ids.slice(0, this.of.length);
  }

  getOwnPropertyDescriptor(_target: Record<string, ToolOutcome>, key: string | symbol) {
    const at = this.position(key);
    if (at === undefined) return undefined;
    return { value: this.of.store.outcomes[at], enumerable: true, configurable: true, writable: false };
  }

  set(): boolean {
    return false;
  }

  defineProperty(): boolean {
    return false;
  }

  deleteProperty(): boolean {
    return false;
  }
}

/**
 * `record` with one more outcome, in O(1): a run's records share one append-only store and
 * each reads only its own prefix (a copy per `tool-end` made the fold quadratic over a long
 * run). The result reads, spreads and serializes like a plain object and refuses writes.
 * A record that did not come from here (the initial `{}`, a state read back from JSON) or
 * that was appended to before (an older state) is copied into a new store once.
 *
 * @example
 * next.toolOutcomes = withOutcome(state.toolOutcomes, event.toolCallId, 'executed');
 */
export function withOutcome(
  record: Readonly<Record<string, ToolOutcome>>,
  id: string,
  outcome: ToolOutcome,
): Readonly<Record<string, ToolOutcome>> {
  const own = (record as Record<symbol, RecordOf | undefined>)[RECORD];
  let store: OutcomeStore;
  if (own && own.length === own.store.ids.length && !own.store.at.has(id)) {
    store = own.store;
  } else {
    store = new OutcomeStore();
    for (const [key, value] of Object.entries(record)) if (key !== id) store.push(key, value);
  }
  store.push(id, outcome);
  return new Proxy({}, new RecordHandler({ store, length: store.ids.length }));
}
