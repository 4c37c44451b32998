import type { ToolKind } from './permission-types.js';
import { analyzeShell, type ShellAnalysis } from './shell-commands.js';

/**
 * The tool kinds of the built-in tools of `@rxagent/tools`.
 *
 * @example
 * BUILT_IN_KINDS.bash; // 'command'
 */
export const BUILT_IN_KINDS: Readonly<Record<string, ToolKind>> = Object.freeze({
  read: 'read',
  list: 'read',
  grep: 'read',
  tool_search: 'read',
  write: 'edit',
  edit: 'edit',
  bash: 'command',
});

/** What a rule can match in a call: its path and command arguments, when they are strings. */
export interface CallSubject {
  kind: ToolKind;
  path?: string;
  command?: string;
  /** The simple commands `command` runs (parsed once per call). */
  commands?: ShellAnalysis;
}

/**
 * The kind, path and command of a call. The path is the `path` argument (`.` for tools of kind
 * `read` that default to the root); the command the `command` argument.
 */
export function callSubject(
  toolName: string,
  args: unknown,
  kinds: Readonly<Record<string, ToolKind>>,
): CallSubject {
  const kind = kinds[toolName] ?? BUILT_IN_KINDS[toolName] ?? 'command';
  const a = (typeof args === 'object' && args !== null ? args : {}) as Record<string, unknown>;
  const subject: CallSubject = { kind };
  if (typeof a.path === 'string') subject.path = a.path;
  else if (kind === 'read' && (toolName === 'list' || toolName === 'grep')) subject.path = '.';
  if (typeof a.command === 'string') {
    subject.command = a.command;
    subject.commands = analyzeShell(a.command);
  }
  return subject;
}
