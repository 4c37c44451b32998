import type { Message, ToolCallPart } from '@rxagent/core';

/**
 * The paths one tool call touches.
 *
 * @example
 * const ops: FileOperations = { read: ['src/a.ts'], modified: [] };
 */
export interface FileOperations {
  read?: readonly string[];
  /** Written or edited. */
  modified?: readonly string[];
}

/**
 * Says which paths a tool touches, from its arguments.
 *
 * @example
 * const copy: FileOperationsOf = (args) => ({ read: [String(args.from)], modified: [String(args.to)] });
 */
export type FileOperationsOf = (args: Record<string, unknown>) => FileOperations;

const pathOf = (args: Record<string, unknown>): string[] =>
  typeof args.path === 'string' ? [args.path] : [];

/** The tools of `@rxagent/tools` (read, write, edit). */
const BUILT_IN: Readonly<Record<string, FileOperationsOf>> = {
  read: (args) => ({ read: pathOf(args) }),
  write: (args) => ({ modified: pathOf(args) }),
  edit: (args) => ({ modified: pathOf(args) }),
};

/**
 * The files a conversation touched, kept across compactions: path → whether it was only read
 * or also modified (written or edited). Immutable: `with…` returns a new memory.
 *
 * @example
 * const files = FileMemory.empty().withMessages(transcript, {});
 * files.modified(); // ['src/a.ts']
 */
export class FileMemory {
  private constructor(private readonly paths: ReadonlyMap<string, 'read' | 'modified'>) {}

  static empty(): FileMemory {
    return new FileMemory(new Map());
  }

  /** The memory with the file operations of the tool calls in `messages`. */
  withMessages(messages: readonly Message[], custom: Readonly<Record<string, FileOperationsOf>>): FileMemory {
    const paths = new Map(this.paths);
    for (const message of messages) {
      if (message.role !== 'assistant') continue;
      for (const part of message.content) {
        if (part.type === 'tool-call') record(paths, part, custom);
      }
    }
    return new FileMemory(paths);
  }

  /** The memory with the given paths (parsed back from a committed checkpoint). */
  withPaths(read: readonly string[], modified: readonly string[]): FileMemory {
    const paths = new Map(this.paths);
    for (const p of read) if (!paths.has(p)) paths.set(p, 'read');
    for (const p of modified) paths.set(p, 'modified');
    return new FileMemory(paths);
  }

  read(): string[] {
    return [...this.paths]
      .filter(([, kind]) => kind === 'read')
      .map(([p]) => p)
      .sort();
  }

  modified(): string[] {
    return [...this.paths]
      .filter(([, kind]) => kind === 'modified')
      .map(([p]) => p)
      .sort();
  }

  get size(): number {
    return this.paths.size;
  }
}

function record(
  paths: Map<string, 'read' | 'modified'>,
  call: ToolCallPart,
  custom: Readonly<Record<string, FileOperationsOf>>,
): void {
  const of = custom[call.name] ?? BUILT_IN[call.name];
  if (!of || typeof call.args !== 'object' || call.args === null) return;
  let ops: FileOperations;
  try {
    ops = of(call.args as Record<string, unknown>);
  } catch {
    return; // a declaration that cannot read these arguments tracks nothing for this call
  }
  for (const p of ops.read ?? []) if (!paths.has(p)) paths.set(p, 'read');
  for (const p of ops.modified ?? []) paths.set(p, 'modified');
}
