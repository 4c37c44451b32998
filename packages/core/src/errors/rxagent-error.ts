const KINDS = Symbol.for('rxagent.error.kinds');

/**
 * Base of every error rxagent throws. `isInstance` works across copies of the package
 * (a marker, not `instanceof`), so check errors with it.
 *
 * @example
 * if (RateLimitError.isInstance(err)) console.log(`retry in ${err.retryAfterMs} ms`);
 */
export class RxAgentError extends Error {
  /** Stable name of the class, used by `isInstance`. */
  static readonly kind: string = 'RxAgentError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    const kinds: string[] = [];
    for (let c = new.target as unknown; c && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === 'string' && Object.prototype.hasOwnProperty.call(c, 'kind')) kinds.push(kind);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
    this.name = kinds[0] ?? 'RxAgentError';
  }

  /** True when `error` is an instance of this class (or a subclass), from any copy of rxagent. */
  static isInstance<T extends abstract new (...args: never[]) => RxAgentError>(
    this: T & { kind: string },
    error: unknown,
  ): error is InstanceType<T> {
    if (typeof error !== 'object' || error === null) return false;
    const kinds = (error as { [KINDS]?: unknown })[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}
