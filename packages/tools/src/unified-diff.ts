type Op = { kind: ' ' | '-' | '+'; line: string };

// Past this many differing lines the exact (Myers) diff costs too much memory: the changed
// region is then shown as all removed, then all added — still a correct diff.
const MAX_EDIT_DISTANCE = 1000;

/**
 * A unified diff (`--- a/path`, `+++ b/path`, `@@ -l,n +l,n @@` hunks) between two texts,
 * with `context` unchanged lines around each change. Empty when the texts are equal.
 *
 * @example
 * unifiedDiff('a\nb\nc\n', 'a\nB\nc\n', 'x.txt');
 * // '--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c'
 */
export function unifiedDiff(before: string, after: string, path: string, context = 3): string {
  if (before === after) return '';
  const ops = diffLines(splitKeepingEndings(before), splitKeepingEndings(after));
  const out = [`--- a/${path}`, `+++ b/${path}`];
  // Old and new line counts before each op, for the hunk headers.
  const oldBefore: number[] = [];
  const newBefore: number[] = [];
  let oldLines = 0;
  let newLines = 0;
  for (const op of ops) {
    oldBefore.push(oldLines);
    newBefore.push(newLines);
    if (op.kind !== '+') oldLines++;
    if (op.kind !== '-') newLines++;
  }
  for (const [start, end] of hunkRanges(ops, context)) {
    const shown = ops.slice(start, end);
    const oldCount = shown.filter((op) => op.kind !== '+').length;
    const newCount = shown.filter((op) => op.kind !== '-').length;
    out.push(`@@ -${span(oldBefore[start] ?? 0, oldCount)} +${span(newBefore[start] ?? 0, newCount)} @@`);
    out.push(...shown.flatMap(formatLine));
  }
  return out.join('\n');
}

function splitKeepingEndings(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

function diffLines(a: string[], b: string[]): Op[] {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const midA = a.slice(prefix, a.length - suffix);
  const midB = b.slice(prefix, b.length - suffix);
  const middle = myers(midA, midB) ?? [
    ...midA.map((line): Op => ({ kind: '-', line })),
    ...midB.map((line): Op => ({ kind: '+', line })),
  ];
  const same = (line: string): Op => ({ kind: ' ', line });
  return [...a.slice(0, prefix).map(same), ...middle, ...a.slice(a.length - suffix).map(same)];
}

/** Myers' O((N+M)D) diff; undefined when D exceeds the cap. */
function myers(a: string[], b: string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v for k in [-d, d] as it was before step d.
  const trace: Int32Array[] = [];
  for (let d = 0; d <= Math.min(max, MAX_EDIT_DISTANCE); d++) {
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && at(v, offset + k - 1) < at(v, offset + k + 1));
      let x = down ? at(v, offset + k + 1) : at(v, offset + k - 1) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(a, b, trace);
    }
  }
  return undefined;
}

function backtrack(a: string[], b: string[], trace: Int32Array[]): Op[] {
  const ops: Op[] = [];
  let x = a.length;
  let y = b.length;
  for (let d = trace.length - 1; d > 0; d--) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && at(v, k - 1 + d) < at(v, k + 1 + d));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(v, prevK + d);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', line: a[--x] as string });
      y--;
    }
    if (down) ops.push({ kind: '+', line: b[--y] as string });
    else ops.push({ kind: '-', line: a[--x] as string });
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', line: a[--x] as string });
    y--;
  }
  return ops.reverse();
}

function at(array: Int32Array, index: number): number {
  return array[index] ?? 0;
}

/** [start, end) ranges of `ops` to show: changes with their context, merged when close. */
function hunkRanges(ops: Op[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  ops.forEach((op, i) => {
    if (op.kind === ' ') return;
    const start = Math.max(0, i - context);
    const end = Math.min(ops.length, i + 1 + context);
    const last = ranges[ranges.length - 1];
    if (last && start <= last[1]) last[1] = end;
    else ranges.push([start, end]);
  });
  return ranges;
}

function formatLine(op: Op): string[] {
  const line = op.kind + op.line.replace(/\n$/, '');
  return op.line.endsWith('\n') ? [line] : [line, '\\ No newline at end of file'];
}

// GNU diff: a one-line range is just its line; an empty range names the line before it.
function span(linesBefore: number, count: number): string {
  if (count === 0) return `${linesBefore},0`;
  return count === 1 ? `${linesBefore + 1}` : `${linesBefore + 1},${count}`;
}
