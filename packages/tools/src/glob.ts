/**
 * A RegExp for a file-name glob: `*` (any characters but `/`), `**` (any, `/` included), `?`
 * (one character) and `{a,b}` (either). Without a `/` the glob is meant for base names.
 *
 * @example
 * globToRegExp('*.{ts,tsx}').test('index.tsx'); // true
 * globToRegExp('src/**\/*.ts').test('src/a/b.ts'); // true
 */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i] as string;
    if (char === '*' && glob[i + 1] === '*') {
      source += '.*';
      i++;
      if (glob[i + 1] === '/') i++; // `**/` also matches no folder at all
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else if (char === '{') {
      braces++;
      source += '(?:';
    } else if (char === '}' && braces > 0) {
      braces--;
      source += ')';
    } else if (char === ',' && braces > 0) source += '|';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}${')'.repeat(braces)}$`);
}
