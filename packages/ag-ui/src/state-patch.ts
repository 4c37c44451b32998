/**
 * One RFC 6902 operation of a `STATE_DELTA` (only the three a diff needs).
 *
 * @example
 * const op: PatchOperation = { op: 'replace', path: '/step', value: 2 };
 */
export type PatchOperation =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A JSON Pointer reference token (RFC 6901: `~` as `~0`, `/` as `~1`). */
const token = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The JSON Patch that turns `before` into `after` (plain JSON values): objects key by key,
 * anything else (arrays included) replaced whole when it differs. Empty when they are equal.
 *
 * @example
 * statePatch({ step: 1, usage: { totalTokens: 5 } }, { step: 2, usage: { totalTokens: 5 } });
 * // [{ op: 'replace', path: '/step', value: 2 }]
 */
export function statePatch(before: unknown, after: unknown, path = ''): PatchOperation[] {
  if (isObject(before) && isObject(after)) {
    const ops: PatchOperation[] = [];
    for (const key of Object.keys(before)) {
      if (!(key in after)) ops.push({ op: 'remove', path: `${path}/${token(key)}` });
    }
    for (const [key, value] of Object.entries(after)) {
      const at = `${path}/${token(key)}`;
      if (!(key in before)) ops.push({ op: 'add', path: at, value });
      else ops.push(...statePatch(before[key], value, at));
    }
    return ops;
  }
  return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ op: 'replace', path, value: after }];
}
