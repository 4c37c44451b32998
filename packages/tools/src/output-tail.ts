import { truncateTail, type TruncationLimits } from './truncate.js';

/**
 * The end of a command's output, as the model reads it.
 *
 * @example
 * const { text, truncated, totalLines } = tail.read();
 */
export interface OutputTailText {
  text: string;
  /** Lines the command printed in all (a last line without newline counts). */
  totalLines: number;
  totalBytes: number;
  /** Lines shown (the last of them may be cut when a single line is over the byte limit). */
  shownLines: number;
  truncated: boolean;
}

/**
 * Keeps the last bytes of a command's output (stdout and stderr as they arrive) in bounded
 * memory, counting everything, and gives its tail within the limits.
 *
 * @example
 * const tail = new OutputTail({ maxLines: 2000, maxBytes: 50 * 1024 });
 * child.stdout.on('data', (chunk: Buffer) => tail.push(chunk));
 * tail.read().text;
 */
export class OutputTail {
  private chunks: Buffer[] = [];
  private kept = 0;
  private dropped = false;
  private newlines = 0;
  private lastByte = -1;
  totalBytes = 0;

  constructor(private readonly limits: TruncationLimits) {}

  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.kept += chunk.length;
    this.totalBytes += chunk.length;
    for (const byte of chunk) if (byte === 0x0a) this.newlines++;
    this.lastByte = chunk[chunk.length - 1] ?? -1;
    // Twice the byte limit is always enough for the shown tail, partial first line included.
    const keep = 2 * this.limits.maxBytes;
    while (this.chunks.length > 1 && this.kept - (this.chunks[0]?.length ?? 0) >= keep) {
      this.kept -= this.chunks.shift()?.length ?? 0;
      this.dropped = true;
    }
  }

  read(): OutputTailText {
    let text = Buffer.concat(this.chunks).toString('utf8');
    // What is left of a line whose start was dropped is not shown.
    if (this.dropped && text.includes('\n')) text = text.slice(text.indexOf('\n') + 1);
    const lines = text === '' ? [] : text.split('\n');
    if (text.endsWith('\n')) lines.pop();
    const totalLines = this.newlines + (this.totalBytes > 0 && this.lastByte !== 0x0a ? 1 : 0);
    const tail = truncateTail(lines, this.limits);
    return {
      text: tail.lines.join('\n'),
      totalLines,
      totalBytes: this.totalBytes,
      shownLines: tail.lines.length,
      truncated: tail.lines.length < totalLines || tail.lineCut === true,
    };
  }
}
