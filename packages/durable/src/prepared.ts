import type { QueryConfig } from 'pg';

/** Two 32-bit FNV-1a hashes of `text` (different offsets), as 16 hex digits. */
function hash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x050c5d1f;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x01000193);
  }
  return (a >>> 0).toString(16).padStart(8, '0') + (b >>> 0).toString(16).padStart(8, '0');
}

/**
 * A statement PostgreSQL parses and plans once per connection (a named prepared statement,
 * named by its text), for the statements a run makes at every step.
 *
 * @example
 * pool.query(prepared('SELECT 1 WHERE $1::int > 0', [1]));
 */
export function prepared(text: string, values: unknown[]): QueryConfig {
  return { name: `rxd_${hash(text)}`, text, values };
}
