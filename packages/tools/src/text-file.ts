const BOM = '\uFEFF';
// Like git: a NUL byte in the first 8,000 bytes makes a file binary.
const BINARY_PROBE_BYTES = 8000;

/**
 * True when `bytes` look binary (a NUL byte near the start).
 *
 * @example
 * isBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00])); // true
 */
export function isBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
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
 * Decodes UTF-8 bytes, taking out a BOM and normalizing CRLF files to `\n`.
 *
 * @example
 * decodeText(Buffer.from('\uFEFFa\r\nb\r\n')); // { text: 'a\nb\n', bom: true, eol: '\r\n' }
 */
export function decodeText(bytes: Uint8Array): TextFile {
  let text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
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
