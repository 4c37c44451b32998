/**
 * A compiled file-name glob: `*` (any characters but `/`), `**` (any, `/` included; `**\/` also
 * matches no folder at all), `?` (one character but `/`) and `{a,b}` (either; may nest). Without
 * a `/` the glob is meant for base names. Everything else is literal.
 *
 * @example
 * const glob: Glob = compileGlob('*.{ts,tsx}');
 * glob.test('index.tsx'); // true
 */
export interface Glob {
  /** Whether the whole of `name` matches. */
  test(name: string): boolean;
  /** How many states the glob compiled to: `test` does at most this much work per character. */
  readonly size: number;
}

type Node =
  | { kind: 'char'; char: string; next: number }
  | { kind: 'one'; slash: boolean; next: number }
  | { kind: 'split'; next: number[] }
  | { kind: 'match' };

type Item =
  { kind: 'char'; char: string } | { kind: 'one' | 'star' | 'globstar' } | { kind: 'alt'; options: Item[][] };

/**
 * Compiles a glob into a state machine run without backtracking (a Thompson NFA simulation):
 * `test` takes time proportional to the name's length times the glob's, whatever the glob, so
 * a pattern like `*?*?*?…` cannot stall the event loop the way a backtracking RegExp does.
 *
 * @example
 * compileGlob('src/**\/*.ts').test('src/a/b.ts'); // true
 * compileGlob('*?'.repeat(12) + '.ts').test('a'.repeat(32)); // false, at once
 */
export function compileGlob(glob: string): Glob {
  const nodes: Node[] = [{ kind: 'match' }];
  const add = (node: Node): number => nodes.push(node) - 1;
  // Built back to front: each item is compiled knowing the state that follows it.
  const sequence = (items: Item[], next: number): number =>
    items.reduceRight((after, item) => single(item, after), next);
  const single = (item: Item, next: number): number => {
    switch (item.kind) {
      case 'char':
        return add({ kind: 'char', char: item.char, next });
      case 'one':
        return add({ kind: 'one', slash: false, next });
      case 'star':
      case 'globstar': {
        const loop = add({ kind: 'split', next: [] });
        const one = add({ kind: 'one', slash: item.kind === 'globstar', next: loop });
        (nodes[loop] as { next: number[] }).next.push(one, next);
        return loop;
      }
      case 'alt':
        return add({ kind: 'split', next: item.options.map((option) => sequence(option, next)) });
    }
  };
  const start = sequence(parseGlob(glob), 0);
  return { test: (name) => run(nodes, start, name), size: nodes.length };
}

function parseGlob(glob: string): Item[] {
  let i = 0;
  // One sequence, up to a `,` or `}` of the group it is in (depth > 0), or the end.
  const parseSequence = (depth: number): Item[] => {
    const items: Item[] = [];
    while (i < glob.length) {
      const char = glob[i] as string;
      if (depth > 0 && (char === ',' || char === '}')) return items;
      i++;
      if (char === '*' && glob[i] === '*') {
        i++;
        if (glob[i] === '/') i++;
        items.push({ kind: 'globstar' });
      } else if (char === '*') items.push({ kind: 'star' });
      else if (char === '?') items.push({ kind: 'one' });
      else if (char === '{') {
        const options = [parseSequence(depth + 1)];
        while (glob[i] === ',') {
          i++;
          options.push(parseSequence(depth + 1));
        }
        if (glob[i] === '}') i++; // an unclosed group ends with the glob
        items.push({ kind: 'alt', options });
      } else items.push({ kind: 'char', char });
    }
    return items;
  };
  return parseSequence(0);
}

function run(nodes: Node[], start: number, name: string): boolean {
  let current = closure(nodes, [start]);
  for (let at = 0; at < name.length; at++) {
    const char = name[at] as string;
    const next: number[] = [];
    for (const id of current) {
      const node = nodes[id] as Node;
      if (node.kind === 'char' && node.char === char) next.push(node.next);
      else if (node.kind === 'one' && (node.slash || char !== '/')) next.push(node.next);
    }
    if (next.length === 0) return false;
    current = closure(nodes, next);
  }
  return current.includes(0);
}

/** The states reachable from `ids` through splits, each once, splits left out. */
function closure(nodes: Node[], ids: number[]): number[] {
  const seen = new Set<number>();
  const states: number[] = [];
  const stack = [...ids];
  while (stack.length > 0) {
    const id = stack.pop() as number;
    if (seen.has(id)) continue;
    seen.add(id);
    const node = nodes[id] as Node;
    if (node.kind === 'split') stack.push(...node.next);
    else states.push(id);
  }
  return states;
}
