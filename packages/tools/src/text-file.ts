const BOM = '\uFEFF';
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * True when `bytes` hold a NUL byte anywhere: text files never do.
 *
 * @example
 * isBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00])); // true
 */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.includes(0);
}

/**
 * Why bytes are not text the tools can show or change: `'binary'` (a NUL byte anywhere),
 * `'not-utf8'` (not valid UTF-8, e.g. Latin-1), or `undefined` when they are text.
 *
 * @example
 * textProblem(Buffer.from('caf\xe9', 'latin1')); // 'not-utf8'
 */
export function textProblem(bytes: Uint8Array): 'binary' | 'not-utf8' | undefined {
  if (isBinary(bytes)) return 'binary';
  try {
    strictUtf8.decode(bytes);
    return undefined;
  } catch {
    return 'not-utf8';
  }
}

/**
 * A text file's content with its BOM and line endings taken out, to put back when writing.
 *
 * @example
 * const file: TextFile = decodeText(await readFile(path));
 */
export interface TextFile {
  /** The text without BOM; line endings `\n` when `eol` is `'\r\n'`, untouched otherwise. */
  text: string;
  bom: boolean;
  /** `'\r\n'` only when every line ends so; mixed files are left as they are (`'\n'`). */
  eol: '\n' | '\r\n';
}

/**
 * Decodes UTF-8 bytes, taking out a BOM and normalizing CRLF files to `\n`. Throws a `TypeError`
 * on bytes that are not valid UTF-8 (check with `textProblem` first): nothing is replaced by U+FFFD.
 *
 * @example
 * decodeText(Buffer.from('\uFEFFa\r\nb\r\n')); // { text: 'a\nb\n', bom: true, eol: '\r\n' }
 */
export function decodeText(bytes: Uint8Array): TextFile {
  let text = strictUtf8.decode(bytes);
  const bom = text.startsWith(BOM);
  if (bom) text = text.slice(1);
  const lf = (text.match(/\n/g) ?? []).length;
  const crlf = (text.match(/\r\n/g) ?? []).length;
  if (lf > 0 && crlf === lf) return { text: text.replace(/\r\n/g, '\n'), bom, eol: '\r\n' };
  return { text, bom, eol: '\n' };
}

/**
 * Encodes text back with the BOM and line endings of the file it came from.
 *
 * @example
 * encodeText({ text: 'a\nb\n', bom: true, eol: '\r\n' }).toString(); // '\uFEFFa\r\nb\r\n'
 */
export function encodeText(file: TextFile): Buffer {
  const text = file.eol === '\r\n' ? file.text.replace(/\n/g, '\r\n') : file.text;
  return Buffer.from((file.bom ? BOM : '') + text, 'utf8');
}

/**
 * Splits text into lines for display: `\n` or `\r\n` ends a line, a final line ending adds no
 * empty line, a BOM is dropped.
 *
 * @example
 * splitLines('a\r\nb\n'); // ['a', 'b']
 */
export function splitLines(text: string): string[] {
  const body = text.startsWith(BOM) ? text.slice(1) : text;
  if (body === '') return [];
  const lines = body.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Normalizes `\r\n` to `\n` (for text the model sends, matched against a normalized file).
 *
 * @example
 * toLf('a\r\nb'); // 'a\nb'
 */
export function toLf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}
