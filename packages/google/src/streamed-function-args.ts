/**
 * One piece of a function call's arguments, as Gemini streams them (`functionCall.partialArgs`
 * with `streamFunctionCallArguments`): a value at a JSON path. String values may come in
 * pieces (`willContinue`), each appended to the last.
 *
 * @example
 * const piece: PartialArg = { jsonPath: '$.operations[0].price', numberValue: 0.5 };
 */
export interface PartialArg {
  jsonPath?: string;
  stringValue?: string;
  numberValue?: number;
  boolValue?: boolean;
  nullValue?: unknown;
  willContinue?: boolean;
}

type Container = Record<string, unknown> | unknown[];

/**
 * The arguments of one streamed function call, assembled from its `partialArgs`: nested
 * objects and arrays are made as the paths need them, string pieces of one path are joined.
 * Paths it cannot read are skipped (never thrown): the call keeps what it could assemble.
 *
 * @example
 * const args = new StreamedFunctionArgs();
 * args.add([{ jsonPath: '$.location', stringValue: 'Bos', willContinue: true }]);
 * args.add([{ jsonPath: '$.location', stringValue: 'ton' }]);
 * args.value; // { location: 'Boston' }
 */
export class StreamedFunctionArgs {
  readonly value: Record<string, unknown> = {};

  /** Folds pieces into the arguments. */
  add(pieces: readonly PartialArg[]): void {
    for (const piece of pieces) {
      const path = parsePath(piece.jsonPath);
      if (!path || path.length === 0) continue;
      this.set(path, piece);
    }
  }

  private set(path: (string | number)[], piece: PartialArg): void {
    let node: Container = this.value;
    for (let i = 0; i < path.length - 1; i++) {
      const key = path[i]!;
      const next = read(node, key);
      if (typeof next === 'object' && next !== null) {
        node = next as Container;
      } else {
        const made: Container = typeof path[i + 1] === 'number' ? [] : {};
        write(node, key, made);
        node = made;
      }
    }
    const last = path[path.length - 1]!;
    if (piece.stringValue !== undefined) {
      const before = read(node, last);
      write(node, last, typeof before === 'string' ? before + piece.stringValue : piece.stringValue);
    } else if (piece.numberValue !== undefined) {
      write(node, last, piece.numberValue);
    } else if (piece.boolValue !== undefined) {
      write(node, last, piece.boolValue);
    } else if ('nullValue' in piece) {
      write(node, last, null);
    }
  }
}

function read(node: Container, key: string | number): unknown {
  return Array.isArray(node) ? (typeof key === 'number' ? node[key] : undefined) : node[String(key)];
}

function write(node: Container, key: string | number, value: unknown): void {
  if (Array.isArray(node)) {
    if (typeof key === 'number') node[key] = value;
  } else {
    node[String(key)] = value;
  }
}

/** `$.a.b[0]['c d']` → `['a', 'b', 0, 'c d']`; undefined for what is not such a path. */
function parsePath(jsonPath: string | undefined): (string | number)[] | undefined {
  if (!jsonPath?.startsWith('$')) return undefined;
  const path: (string | number)[] = [];
  const pattern = /\.([A-Za-z_$][\w$-]*)|\[(\d+)\]|\['((?:[^'\\]|\\.)*)'\]|\["((?:[^"\\]|\\.)*)"\]/y;
  let at = 1;
  while (at < jsonPath.length) {
    pattern.lastIndex = at;
    const match = pattern.exec(jsonPath);
    if (!match) return undefined;
    if (match[1] !== undefined) path.push(match[1]);
    else if (match[2] !== undefined) path.push(Number(match[2]));
    else path.push((match[3] ?? match[4] ?? '').replace(/\\(.)/g, '$1'));
    at = pattern.lastIndex;
  }
  return path;
}
