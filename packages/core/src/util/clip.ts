/**
 * `text` cut to `max` characters, saying how long it was: error results go back to the model
 * on every later step, so what a model sent must not grow them without bound.
 *
 * @example
 * clip('x'.repeat(5000), 2000); // 'xxx…x… (5000 characters)'
 */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
}
