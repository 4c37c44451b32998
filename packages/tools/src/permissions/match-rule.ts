import path from 'node:path';
import { compileGlob, type Glob } from '../glob.js';
import type { PermissionRule } from './permission-types.js';
import type { CallSubject } from './call-subject.js';

/** A rule with its globs compiled once. */
export interface CompiledRule {
  readonly rule: PermissionRule;
  readonly index: number;
  matches(toolName: string, subject: CallSubject, root: string | undefined): boolean;
}

// Shell syntax that chains or substitutes commands: a prefix says nothing about the rest.
const CHAINING = /[;&|`\n<>]|\$\(/;

/**
 * True when `command` is made only of the words of `prefix` then more words. A command that
 * chains others (`;`, `&&`, `|`, `$(…)`, redirections) never matches an allow rule: `ls; rm -rf
 * ~` must not pass as `ls`. For deny and ask rules, any of the chained commands may match.
 */
function commandMatches(command: string, prefix: string, decision: PermissionRule['decision']): boolean {
  const want = prefix.trim().split(/\s+/);
  const startsWith = (segment: string) => {
    const words = segment.trim().split(/\s+/);
    return want.every((w, i) => words[i] === w);
  };
  if (!CHAINING.test(command)) return startsWith(command);
  if (decision === 'allow') return false;
  return command.split(/[;&|`\n<>()]+|\$\(/).some((segment) => segment.trim() !== '' && startsWith(segment));
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
  return {
    rule,
    index,
    matches(toolName, subject, root) {
      if (!name.test(toolName)) return false;
      if (pathGlob) {
        if (subject.path === undefined) return false;
        const relative = rulePath(subject.path, root);
        // A glob without `/` is about base names (`*.env`), as everywhere in the tools.
        const target = rule.path!.includes('/') ? relative : path.posix.basename(relative);
        if (!pathGlob.test(target)) return false;
      }
      if (rule.command !== undefined) {
        if (subject.command === undefined || !commandMatches(subject.command, rule.command, rule.decision))
          return false;
      }
      return true;
    },
  };
}
