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
