import type { Tool } from '@rxagent/core';
import { editTool, type EditArgs } from './edit-tool.js';
import { grepTool, type GrepArgs } from './grep-tool.js';
import { listTool, type ListArgs } from './list-tool.js';
import { readTool, type ReadArgs } from './read-tool.js';
import { createReadState, type FileReadState } from './read-state.js';
import { writeTool, type WriteArgs } from './write-tool.js';

/**
 * Options of `fileTools` and `readOnlyTools`.
 *
 * @example
 * const options: FileToolsOptions = { root: '/work/project', maxEntries: 1000, maxMatches: 200 };
 */
export interface FileToolsOptions {
  /** The folder every tool is confined to. */
  root: string;
  /** Shared by the tools (default: a new one). Pass your own to share it wider or `forget` runs. */
  readState?: FileReadState;
  /** Cap of `list` entries (default 500). */
  maxEntries?: number;
  /** Cap of `grep` matching lines (default 100). */
  maxMatches?: number;
}

/**
 * The file tools by name.
 *
 * @example
 * const { read, edit }: FileTools = fileTools({ root });
 */
export interface FileTools {
  read: Tool<ReadArgs, string>;
  write: Tool<WriteArgs, string>;
  edit: Tool<EditArgs, string>;
  list: Tool<ListArgs, string>;
  grep: Tool<GrepArgs, string>;
}

/**
 * `read`, `write`, `edit`, `list` and `grep` confined to `root`, sharing one read-state (so
 * `write`/`edit` see what `read` read). No `bash`: add `bashTool` yourself, with approval.
 *
 * @example
 * const { read, write, edit, list, grep } = fileTools({ root: '/work/project' });
 * runAgent({ model, prompt: 'Fix the typo in README.md', tools: [read, edit, list, grep] });
 */
export function fileTools(options: FileToolsOptions): FileTools {
  const readState = options.readState ?? createReadState();
  const { root } = options;
  return {
    read: readTool({ root, readState }),
    write: writeTool({ root, readState }),
    edit: editTool({ root, readState }),
    list: listTool({ root, maxEntries: options.maxEntries }),
    grep: grepTool({ root, maxMatches: options.maxMatches }),
  };
}

/**
 * `[read, list, grep]` confined to `root`: everything an agent needs to answer questions about
 * a folder without changing it.
 *
 * @example
 * runAgent({ model, prompt: 'What does this project do?', tools: readOnlyTools({ root: process.cwd() }) });
 */
export function readOnlyTools(
  options: FileToolsOptions,
): [Tool<ReadArgs, string>, Tool<ListArgs, string>, Tool<GrepArgs, string>] {
  const { read, list, grep } = fileTools(options);
  return [read, list, grep];
}
