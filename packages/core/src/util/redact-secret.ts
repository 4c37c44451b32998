const REDACTED = '[redacted]';

/**
 * Removes every occurrence of `secret` (the API key) from a string, or from the strings
 * inside a JSON-like value, so errors can be logged and serialized safely.
 *
 * @example
 * redactSecret('bad key sk-123', 'sk-123'); // 'bad key [redacted]'
 */
export function redactSecret<T>(value: T, secret: string | undefined): T {
  if (!secret || secret.length < 4) return value;
  return redact(value, secret, 0) as T;
}

function redact(value: unknown, secret: string, depth: number): unknown {
  if (typeof value === 'string') return value.split(secret).join(REDACTED);
  if (depth > 8 || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => redact(item, secret, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) out[key] = redact(item, secret, depth + 1);
  return out;
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
