/**
 * The last `max` characters of a text that keeps growing, with the count of all it was given:
 * memory stays bounded however much a task prints.
 */
export class BoundedText {
  private text = '';
  total = 0;

  constructor(private readonly max: number) {}

  push(chunk: string): void {
    this.total += chunk.length;
    this.text += chunk;
    // Trim in batches (at twice the bound) so a stream of small chunks stays linear.
    if (this.text.length > this.max * 2) this.text = this.text.slice(-this.max);
  }

  /** The last `chars` characters kept (at most the bound). */
  tail(chars = this.max): string {
    const n = Math.min(chars, this.max);
    return n <= 0 ? '' : this.text.slice(-n);
  }
}
