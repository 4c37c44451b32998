import path from 'node:path';
import { compileGlob, type Glob } from '../glob.js';
import type { PermissionRule } from './permission-types.js';
import type { CallSubject } from './call-subject.js';
import type { SimpleCommand } from './shell-commands.js';

/** A rule with its globs compiled once. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  readonly index: number;
  /**
   * The call matches every condition. A command condition of a deny or ask rule matches when any
   * simple command of the line starts with its words, or when what the line runs cannot be
   * told; of an allow rule, when every simple command does (and none writes a file).
   */
  matches(toolName: string, subject: CallSubject, root: string | undefined): boolean;
  /** The tool and path conditions hold, and the rule's command (if any) allows this one command. */
  allowsCommand(
    toolName: string,
    subject: CallSubject,
    root: string | undefined,
    command: SimpleCommand,
  ): boolean;
}

/** The words a command rule starts with: the first as a base name, as commands are read. */
function prefixWords(prefix: string): string[] {
  const words = prefix.trim().split(/\s+/);
  words[0] = words[0]!.slice(words[0]!.lastIndexOf('/') + 1);
  return words;
}

/** The command starts with `want` for sure. */
const startsWith = (command: SimpleCommand, want: readonly string[]) =>
  want.every((w, i) => command.words[i] === w);

/** The command may start with `want`: a word only known when it runs could be anything. */
const mayStartWith = (command: SimpleCommand, want: readonly string[]) =>
  want.every((w, i) => command.words[i] === w || command.words[i] === null);

function commandMatches(
  subject: CallSubject,
  want: readonly string[],
  decision: PermissionRule['decision'],
): boolean {
  const analysis = subject.commands;
  if (analysis === undefined) return false;
  if (decision !== 'allow')
    return analysis.unknown !== undefined || analysis.commands.some((c) => mayStartWith(c, want));
  return (
    analysis.unknown === undefined &&
    analysis.commands.length > 0 &&
    analysis.commands.every((c) => startsWith(c, want) && !c.writes)
  );
}

/** The path as a rule sees it: relative to the root, `/`-separated, without `./`. */
function rulePath(requested: string, root: string | undefined): string {
  if (root === undefined)
    return path.posix.normalize(requested.split(path.sep).join('/')).replace(/^\.\//, '');
  const relative = path.relative(path.resolve(root), path.resolve(root, requested));
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

/**
 * Compiles a rule (its name and path globs) into a matcher.
 *
 * @example
 * compileRule({ tool: 'bash', command: 'git', decision: 'allow' }, 0).matches('bash', { kind: 'command', command: 'git log' }, undefined); // true
 */
export function compileRule(rule: PermissionRule, index: number): CompiledRule {
  const name: Glob = compileGlob(rule.tool);
  const pathGlob: Glob | undefined = rule.path === undefined ? undefined : compileGlob(rule.path);
  const want = rule.command === undefined ? undefined : prefixWords(rule.command);
  const otherConditions = (toolName: string, subject: CallSubject, root: string | undefined) => {
    if (!name.test(toolName)) return false;
    if (!pathGlob) return true;
    if (subject.path === undefined) return false;
    const relative = rulePath(subject.path, root);
    // A glob without `/` is about base names (`*.env`), as everywhere in the tools.
    const target = rule.path!.includes('/') ? relative : path.posix.basename(relative);
    return pathGlob.test(target);
  };
  return {
    rule,
    index,
    matches(toolName, subject, root) {
      if (!otherConditions(toolName, subject, root)) return false;
      return want === undefined || commandMatches(subject, want, rule.decision);
    },
    allowsCommand(toolName, subject, root, command) {
      if (rule.decision !== 'allow' || !otherConditions(toolName, subject, root)) return false;
      return want === undefined || (startsWith(command, want) && !command.writes);
    },
  };
}
