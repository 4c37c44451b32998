import type { ModelEvent, SerializedError } from '@rxagent/core';

/**
 * One recorded model call: the request (secrets redacted, timestamps dropped) and its stream.
 *
 * @example
 * const call: CassetteInteraction = { request: { messages: [] }, events: [{ at: 120, event: { type: 'text-delta', index: 0, text: 'Hi' } }] };
 */
export interface CassetteInteraction {
  request: unknown;
  /** Each event with its time in ms after the request. */
  events: { at: number; event: ModelEvent }[];
  /** The stream ended with this error instead of completing. */
  error?: SerializedError & { at: number };
}

/**
 * The JSON file of a cassette.
 *
 * @example
 * const cassette = JSON.parse(fs.readFileSync(file, 'utf8')) as CassetteFile;
 */
export interface CassetteFile {
  version: 1;
  provider: string;
  modelId: string;
  interactions: CassetteInteraction[];
}

const REDACTED = '[redacted]';
const SECRET_KEY =
  /^(api[-_]?key|x-api-key|authorization|proxy-authorization|(access|refresh|id)?[-_]?token|secret|password|cookie)$/i;
// Keys of the shapes providers hand out, wherever they appear (also inside text).
const SECRET_VALUE =
  /\b(sk-(?:ant-)?[A-Za-z0-9_-]{16,}|xox[abprs]-[A-Za-z0-9-]{10,}|gh[pousr]_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{16})\b/g;

/**
 * A JSON copy of `value` with secrets replaced by `[redacted]`: values under secret-looking
 * keys, strings shaped like API keys, and every string in `secrets`; `timestamp` keys dropped
 * when `dropTimestamps` (they come from the clock, not from the test).
 */
export function scrub(value: unknown, secrets: readonly string[], dropTimestamps: boolean): unknown {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let s = v.replace(SECRET_VALUE, REDACTED);
      for (const secret of secrets) if (secret.length >= 4) s = s.split(secret).join(REDACTED);
      return s;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (typeof v !== 'object' || v === null) return v;
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(v)) {
      if (item === undefined) continue;
      if (dropTimestamps && key === 'timestamp') continue;
      out[key] = SECRET_KEY.test(key) && item !== null && typeof item !== 'object' ? REDACTED : walk(item);
    }
    return out;
  };
  return walk(JSON.parse(JSON.stringify(value ?? null)) as unknown);
}

/** Where two JSON values differ, as `path: recorded … received …` lines (at most `limit`). */
export function differences(recorded: unknown, received: unknown, limit = 10): string[] {
  const out: string[] = [];
  const show = (v: unknown) => {
    const text = JSON.stringify(v);
    return text === undefined ? 'nothing' : text.length > 80 ? `${text.slice(0, 77)}...` : text;
  };
  const walk = (a: unknown, b: unknown, path: string) => {
    if (out.length >= limit) return;
    if (
      typeof a === 'object' &&
      a !== null &&
      typeof b === 'object' &&
      b !== null &&
      Array.isArray(a) === Array.isArray(b)
    ) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      for (const key of keys) {
        const next = Array.isArray(a) ? `${path}[${key}]` : path ? `${path}.${key}` : key;
        walk((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], next);
      }
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b))
      out.push(`${path || '(request)'}: recorded ${show(a)}, received ${show(b)}`);
  };
  walk(recorded, received, '');
  return out;
}
