import { mentionsSecrets, redactSecrets, usableSecrets } from '../util/redact-secret.js';

const MAX_DEPTH = 5;

function copyRedacted(error: Error, secrets: readonly string[], depth: number): Error {
  const copy = Object.create(Object.getPrototypeOf(error) as object) as Error;
  for (const key of Reflect.ownKeys(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key)!;
    if ('value' in descriptor) {
      const value: unknown = descriptor.value;
      descriptor.value =
        key === 'cause'
          ? redactNested(value, secrets, depth + 1)
          : Array.isArray(value) && value.some((v) => v instanceof Error)
            ? value.map((v: unknown) => redactNested(v, secrets, depth + 1))
            : redactSecrets(value, secrets);
    }
    Object.defineProperty(copy, key, descriptor);
  }
  return copy;
}

function redactNested(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (!mentionsSecrets(value, secrets)) return value;
  if (!(value instanceof Error)) return redactSecrets(value, secrets);
  if (depth > MAX_DEPTH) {
    const cut = new Error('[error redacted]');
    cut.name = value.name;
    return cut;
  }
  return copyRedacted(value, secrets, depth);
}

/**
 * The one redaction seam for errors: `error` with every occurrence of `secrets` (API keys,
 * tokens a `ChatModel` declares in `secrets`, or values a run is told to redact) replaced by
 * `[redacted]` — in its message, stack, own fields (a provider error's `body`…), causes and
 * wrapped errors (`RetriesExhaustedError.errors`), at any depth. The same error when it
 * mentions none of them; otherwise a copy of the same class, so `X.isInstance(copy)` and its
 * typed fields (`status`, `retryable`, `retryAfterMs`) still hold. The core applies it to
 * every model failure, so retry events, the run's error, `serializeError`, the proxy, the
 * durable log and spans all see the redacted copy.
 *
 * @example
 * const model: ChatModel = { provider: 'acme', modelId: 'm1', secrets: [apiKey], stream };
 * throw redactError(error, model.secrets);
 */
export function redactError<T>(error: T, secrets: readonly string[] | undefined): T {
  const usable = usableSecrets(secrets);
  if (usable.length === 0) return error;
  return redactNested(error, usable, 0) as T;
}
