/**
 * How much the agent may do without asking: `default` asks before edits and commands;
 * `accept-edits` lets edits through and asks before commands; `plan` is read-only (edits and
 * commands are refused with a reason); `bypass` asks for nothing (deny rules and roots still hold).
 *
 * @example
 * const mode: PermissionMode = 'accept-edits';
 */
export type PermissionMode = 'default' | 'accept-edits' | 'plan' | 'bypass';

/**
 * What a tool does, for the modes: `read` only looks, `edit` changes files, `command` runs
 * programs. Tools of no known kind are treated like commands (fail closed).
 *
 * @example
 * const kinds: Record<string, ToolKind> = { get_weather: 'read', deploy: 'command' };
 */
export type ToolKind = 'read' | 'edit' | 'command';

/**
 * A verdict: run it, refuse it, or ask a person first.
 *
 * @example
 * const behavior: PermissionBehavior = 'ask';
 */
export type PermissionBehavior = 'allow' | 'deny' | 'ask';

/**
 * A rule on tool names and arguments. `tool` is a name or a glob over names (`mcp_*`); `path`
 * a glob over paths relative to the first root (`src/**`, `**\/*.env`): the call's path
 * argument, where it really leads (symlinks), and every path a built-in file tool touches;
 * `command` a prefix, whole words, of any simple command the call's command line runs
 * (`git status` matches `git status -s`, not `git statusx`). All given conditions must hold.
 * Among matching rules, deny wins over ask, ask over allow.
 *
 * @example
 * const rules: PermissionRule[] = [
 *   { tool: 'bash', command: 'git status', decision: 'allow' },
 *   { tool: 'bash', command: 'rm', decision: 'deny', reason: 'Delete files with the edit tool instead.' },
 *   { tool: 'write', path: '**\/*.env', decision: 'deny', reason: 'Secrets files are off limits.' },
 * ];
 */
export interface PermissionRule {
  tool: string;
  path?: string;
  command?: string;
  decision: PermissionBehavior;
  /** What the model reads when this rule refuses a call. */
  reason?: string;
}

/**
 * One decision of the permission engine, as written to the audit log.
 *
 * @example
 * const record: PermissionRecord = { at: 1767225600000, mode: 'plan', toolCallId: 'call_1', tool: 'write', kind: 'edit',
 *   path: 'src/a.ts', decision: 'deny', source: 'mode', reason: 'Plan mode is read-only …' };
 */
export interface PermissionRecord {
  /** `scheduler.now()` of the decision. */
  at: number;
  mode: PermissionMode;
  /** Absent for the approval-policy check made before the call has an audit id. */
  toolCallId?: string;
  tool: string;
  kind: ToolKind;
  path?: string;
  command?: string;
  decision: PermissionBehavior;
  /** What decided: a rule (with its index), the mode, the roots, or a person (`approval`). */
  source: 'rule' | 'mode' | 'roots' | 'approval' | 'error';
  rule?: number;
  /** For `approval` records: what the person answered. */
  approved?: boolean;
  reason?: string;
}
