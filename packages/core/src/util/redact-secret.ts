const REDACTED = '[redacted]';

/**
 * Removes every occurrence of `secret` (the API key) from a string, or from the strings
 * inside a JSON-like value, so errors can be logged and serialized safely.
 *
 * @example
 * redactSecret('bad key sk-123', 'sk-123'); // 'bad key [redacted]'
 */
export function redactSecret<T>(value: T, secret: string | undefined): T {
  return redactSecrets(value, secret === undefined ? [] : [secret]);
}

/**
 * `redactSecret` for several secrets at once (those shorter than 4 characters are ignored:
 * they would redact ordinary text).
 *
 * @example
 * redactSecrets('key sk-1 or sk-2', ['sk-1', 'sk-2']); // 'key [redacted] or [redacted]'
 */
export function redactSecrets<T>(value: T, secrets: readonly string[] | undefined): T {
  const usable = usableSecrets(secrets);
  return usable.length === 0 ? value : (redact(value, usable, 0) as T);
}

/** The secrets worth redacting: strings of at least 4 characters, longest first. */
export function usableSecrets(secrets: readonly unknown[] | undefined): string[] {
  return (secrets ?? [])
    .filter((s): s is string => typeof s === 'string' && s.length >= 4)
    .sort((a, b) => b.length - a.length);
}

function redact(value: unknown, secrets: readonly string[], depth: number): unknown {
  if (typeof value === 'string') return secrets.reduce((text, s) => text.split(s).join(REDACTED), value);
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, secrets, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key !== '__proto__') out[key] = redact(item, secrets, depth + 1);
  }
  return out;
}

/**
 * True when any of `secrets` appears in `value`: a string, or an error's message, stack,
 * causes or JSON (a value that cannot be serialized counts as mentioning them).
 *
 * @example
 * mentionsSecrets(new Error('bad key sk-1234'), ['sk-1234']); // true
 */
export function mentionsSecrets(value: unknown, secrets: readonly string[]): boolean {
  return secrets.some((secret) => mentions(value, secret, 0));
}

function mentions(value: unknown, secret: string, depth: number): boolean {
  if (typeof value === 'string') return value.includes(secret);
  if (depth > 5 || typeof value !== 'object' || value === null) return false;
  const e = value as { message?: unknown; stack?: unknown; cause?: unknown };
  if (mentions(e.message, secret, depth + 1) || mentions(e.stack, secret, depth + 1)) return true;
  if (e.cause !== undefined && mentions(e.cause, secret, depth + 1)) return true;
  try {
    return (JSON.stringify(value) ?? '').includes(secret);
  } catch {
    return true; // cannot tell: treat as unsafe
  }
}

/**
 * The error to attach as `cause`: the original when it does not mention `secret` anywhere
 * (message, stack, body, causes), else a plain `Error` with the same name and a redacted
 * message — an SDK error can echo the key the server saw, and `cause` is what gets logged.
 *
 * @example
 * new AuthError(message, { cause: secretFreeCause(sdkError, apiKey) });
 */
export function secretFreeCause(error: unknown, secret: string | undefined): unknown {
  if (!secret || secret.length < 4 || !mentions(error, secret, 0)) return error;
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : 'error';
  const copy = new Error(redactSecret(message, secret));
  copy.name = name;
  copy.stack = `${name}: ${copy.message}`;
  return copy;
}
