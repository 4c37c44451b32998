/** `*` matches any run of characters; everything else is literal. */
export function matchesPattern(name: string, pattern: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`).test(name);
}

export function matchesAny(name: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) => matchesPattern(name, pattern));
}
