import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { AnyTool } from '@rxagent/core';
import { resolveInRoot } from '../resolve-in-root.js';
import { callSubject, type CallSubject } from './call-subject.js';
import { ruleReason, type Verdict } from './decide-call.js';
import type { CompiledRule } from './match-rule.js';
import { PATH_POLICY, WITH_PATH_POLICY, type PathPolicy, type PolicyAwareTool } from './path-policy.js';
import type { ToolKind } from './permission-types.js';

/** What the path rules of one policy need from it. */
export interface PathRulesEnv {
  rules: readonly CompiledRule[];
  roots: readonly string[];
  kinds: Readonly<Record<string, ToolKind>>;
}

const realOr = (folder: string) => {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
};

/**
 * The path policy the built-in file tools apply to every path they touch or print: a real path
 * (relative to the first root, else to the tool's root) that a deny rule matches is refused,
 * and with `hidden` (a walk) one that an ask rule matches is left out too.
 *
 * @example
 * const policy = pathPolicyOf({ rules, roots, kinds });
 */
export function pathPolicyOf(env: PathRulesEnv): PathPolicy {
  const pathRules = env.rules.filter((r) => r.rule.path !== undefined && r.rule.decision !== 'allow');
  return {
    refusal(toolName, absolute, toolRoot, hidden = false) {
      if (pathRules.length === 0) return undefined;
      const base = env.roots[0] === undefined ? toolRoot : realOr(env.roots[0]);
      const relative = path.relative(base, absolute).split(path.sep).join('/') || '.';
      const subject: CallSubject = { ...callSubject(toolName, {}, env.kinds), path: relative };
      const hit = pathRules.find(
        (r) => (hidden || r.rule.decision === 'deny') && r.matches(toolName, subject, base),
      );
      return hit ? ruleReason(hit.rule, hit.index, toolName) : undefined;
    },
  };
}

/** `tool` made again under `policy` when it is a built-in file tool; else itself. */
export function underPathPolicy(tool: AnyTool, policy: PathPolicy): AnyTool {
  const rebuild = (tool as PolicyAwareTool)[WITH_PATH_POLICY];
  return typeof rebuild === 'function' ? rebuild(policy) : tool;
}

/**
 * Why the gate refuses a call for its paths, or `undefined`: a built-in file tool not made
 * under this policy (its results could not be filtered), or a path whose real location (through
 * symlinks) a rule denies, or asks about when the call itself was not asked about.
 *
 * @example
 * const refusal = await realPathRefusal(env, policy, tool, 'read', subject, verdict, decide);
 */
export async function realPathRefusal(
  env: PathRulesEnv,
  policy: PathPolicy,
  tool: AnyTool | undefined,
  toolName: string,
  subject: CallSubject,
  verdict: Verdict,
  decide: (toolName: string, subject: CallSubject) => Verdict,
): Promise<string | undefined> {
  const hasPathRules = env.rules.some((r) => r.rule.path !== undefined);
  const aware: PolicyAwareTool | undefined = tool;
  if (hasPathRules && typeof aware?.[WITH_PATH_POLICY] === 'function' && aware[PATH_POLICY] !== policy) {
    return (
      `Permission denied: "${toolName}" was not set up by this permission policy, so its path rules could not be ` +
      'applied to every file it touches. Pass the tools through policy.tools([...]).'
    );
  }
  const root = env.roots[0];
  if (!hasPathRules || subject.path === undefined || root === undefined) return undefined;
  let real: string;
  try {
    real = (await resolveInRoot(root, subject.path)).relative;
  } catch {
    return undefined; // outside the first root: the roots check decides
  }
  if (real === subject.path) return undefined;
  const actual = decide(toolName, { ...subject, path: real });
  if (actual.decision === 'deny') return actual.reason;
  if (actual.decision === 'ask' && verdict.decision !== 'ask') {
    return `Permission denied: "${subject.path}" leads to "${real}", which needs a person's approval: use that path, so that it is asked for.`;
  }
  return undefined;
}
