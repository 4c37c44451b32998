const dropProto = (key: string, value: unknown) => (key === '__proto__' ? undefined : value);

/**
 * JSON from a model made safe to copy: every `__proto__` key is dropped, at any depth. A parsed
 * `"__proto__"` is an own property, harmless until someone copies it by assignment
 * (`Object.assign`, `out[key] = v`): then it becomes the copy's prototype, a field that
 * `JSON.stringify` does not show but `value.role` reads. zod drops such keys already; this does
 * the same for JSON-Schema (ajv) arguments and answers. Returns `value` itself when it has none.
 *
 * @example
 * withoutProtoKeys(JSON.parse('{"note":"ok","__proto__":{"role":"admin"}}')); // { note: 'ok' }
 */
export function withoutProtoKeys<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    return value; // not JSON (a cycle, a bigint): not something a model sent
  }
  if (text === undefined || !text.includes('"__proto__"')) return value;
  return JSON.parse(text, dropProto) as T;
}
