const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f' };

/**
 * A file name or path made safe to print one per line: control characters (C0, DEL, C1) and
 * the Unicode line and paragraph separators are written JSON-style (`\n`, `\t`, `\u001b`), so a
 * name holding a newline cannot pass for two entries. Other characters are left as they are.
 *
 * @example
 * escapeName('a\nb.txt'); // 'a\\nb.txt' (a backslash and an n)
 */
export function escapeName(name: string): string {
  return name.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (char) => SHORT[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
