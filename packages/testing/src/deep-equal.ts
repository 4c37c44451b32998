/**
 * Strict deep equality of the values a marble timeline holds (events, messages, errors), the
 * way Node's `util.isDeepStrictEqual` compares them, without Node: `Object.is` for primitives,
 * the same prototype, the same own enumerable keys (a key set to `undefined` differs from a
 * missing one), arrays item by item, `Date`, `RegExp`, `Map`, `Set` and boxed primitives by
 * value, errors also by `name` and `message`. Cycles compare as equal where both sides cycle
 * at the same place.
 *
 * @example
 * deepEqual({ type: 'retry', attempt: 1 }, { type: 'retry', attempt: 1 }); // true
 * deepEqual({ a: undefined }, {}); // false
 */
export function deepEqual(a: unknown, b: unknown): boolean {
  return equal(a, b, []);
}

type Seen = [object, object][];

function equal(a: unknown, b: unknown, seen: Seen): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (seen.some(([x, y]) => x === a && y === b)) return true;
  seen.push([a, b]);
  try {
    return sameKind(a, b, seen) && sameKeys(a, b, seen);
  } finally {
    seen.pop();
  }
}

function sameKind(a: object, b: object, seen: Seen): boolean {
  if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime());
  if (a instanceof RegExp) {
    const other = b as RegExp;
    return a.source === other.source && a.flags === other.flags && a.lastIndex === other.lastIndex;
  }
  if (a instanceof Error && (a.name !== (b as Error).name || a.message !== (b as Error).message))
    return false;
  if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    return Object.is(a.valueOf(), (b as typeof a).valueOf());
  }
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => equal(item, other[i], seen));
  }
  if (a instanceof Set) return sameSet(a, b as Set<unknown>, seen);
  if (a instanceof Map) return sameMap(a, b as Map<unknown, unknown>, seen);
  return true;
}

function sameSet(a: Set<unknown>, b: Set<unknown>, seen: Seen): boolean {
  if (a.size !== b.size) return false;
  const rest = [...b];
  return [...a].every((item) => {
    const i = rest.findIndex((other) => equal(item, other, seen));
    return i >= 0 && rest.splice(i, 1).length === 1;
  });
}

function sameMap(a: Map<unknown, unknown>, b: Map<unknown, unknown>, seen: Seen): boolean {
  if (a.size !== b.size) return false;
  const rest = [...b];
  return [...a].every(([key, value]) => {
    const i = rest.findIndex(([k, v]) => equal(key, k, seen) && equal(value, v, seen));
    return i >= 0 && rest.splice(i, 1).length === 1;
  });
}

function ownKeys(value: object): (string | symbol)[] {
  const keys = Array.isArray(value) ? [] : Object.keys(value);
  const extra = Array.isArray(value) ? Object.keys(value).filter((k) => !/^(0|[1-9]\d*)$/.test(k)) : [];
  const symbols = Object.getOwnPropertySymbols(value).filter(
    (s) => Object.getOwnPropertyDescriptor(value, s)?.enumerable,
  );
  return [...keys, ...extra, ...symbols];
}

function sameKeys(a: object, b: object, seen: Seen): boolean {
  const keys = ownKeys(a);
  const other = ownKeys(b);
  if (keys.length !== other.length) return false;
  return keys.every(
    (key) =>
      Object.prototype.propertyIsEnumerable.call(b, key) &&
      equal((a as Record<string | symbol, unknown>)[key], (b as Record<string | symbol, unknown>)[key], seen),
  );
}
