/**
 * Lines a tool shows at most (`read` from the head, `bash` from the tail).
 *
 * @example
 * truncateHead(lines, { maxLines: MAX_LINES, maxBytes: MAX_BYTES });
 */
export const MAX_LINES = 2000;
/**
 * Bytes of text a tool shows at most (UTF-8).
 *
 * @example
 * truncateTail(lines, { maxLines: MAX_LINES, maxBytes: MAX_BYTES });
 */
export const MAX_BYTES = 50 * 1024;

/**
 * Limits of a truncation.
 *
 * @example
 * const limits: TruncationLimits = { maxLines: 2000, maxBytes: 50 * 1024 };
 */
export interface TruncationLimits {
  maxLines: number;
  maxBytes: number;
}

/**
 * The lines kept, and why the rest was cut (`by` is absent when nothing was).
 *
 * @example
 * const { lines, by } = truncateHead(all, limits);
 */
export interface Truncated {
  lines: string[];
  by?: 'lines' | 'bytes';
  /** The only line kept was longer than `maxBytes` and was itself cut. */
  lineCut?: boolean;
}

/**
 * Keeps the first lines that fit both limits (a newline between lines counts as a byte). A
 * first line longer than `maxBytes` is kept cut at a character boundary.
 *
 * @example
 * truncateHead(['a', 'b', 'c'], { maxLines: 2, maxBytes: 1000 }); // { lines: ['a', 'b'], by: 'lines' }
 */
export function truncateHead(lines: readonly string[], limits: TruncationLimits): Truncated {
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    if (kept.length >= limits.maxLines) return { lines: kept, by: 'lines' };
    const size = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      if (kept.length > 0) return { lines: kept, by: 'bytes' };
      return { lines: [headBytes(line, limits.maxBytes)], by: 'bytes', lineCut: true };
    }
    kept.push(line);
    bytes += size;
  }
  return { lines: kept };
}

/**
 * Keeps the last lines that fit both limits. A last line longer than `maxBytes` is kept as
 * its final `maxBytes` bytes (cut at a character boundary).
 *
 * @example
 * truncateTail(['a', 'b', 'c'], { maxLines: 2, maxBytes: 1000 }); // { lines: ['b', 'c'], by: 'lines' }
 */
export function truncateTail(lines: readonly string[], limits: TruncationLimits): Truncated {
  const kept: string[] = [];
  let bytes = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (kept.length >= limits.maxLines) return { lines: kept.reverse(), by: 'lines' };
    const size = Buffer.byteLength(line) + (kept.length > 0 ? 1 : 0);
    if (bytes + size > limits.maxBytes) {
      if (kept.length > 0) return { lines: kept.reverse(), by: 'bytes' };
      return { lines: [tailBytes(line, limits.maxBytes)], by: 'bytes', lineCut: true };
    }
    kept.push(line);
    bytes += size;
  }
  return { lines: kept.reverse() };
}

/**
 * Formats a byte count for notes: `512 B`, `50 KB`, `1.5 MB`.
 *
 * @example
 * formatBytes(51200); // '50 KB'
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${round(bytes / 1024)} KB`;
  if (bytes < 1024 ** 3) return `${round(bytes / (1024 * 1024))} MB`;
  return `${round(bytes / 1024 ** 3)} GB`;
}

function round(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function headBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = maxBytes;
  // Step back off UTF-8 continuation bytes (10xxxxxx) so no character is split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

function tailBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let start = Math.max(0, bytes.length - maxBytes);
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start++;
  return bytes.subarray(start).toString('utf8');
}

/**
 * Files larger than this are not loaded by `read` (refused) or `grep` (skipped).
 *
 * @example
 * if ((await stat(file)).size > MAX_FILE_BYTES) return;
 */
export const MAX_FILE_BYTES = 20 * 1024 * 1024;
