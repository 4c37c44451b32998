import type { CallSubject } from './call-subject.js';
import type { CompiledRule } from './match-rule.js';
import type {
  PermissionBehavior,
  PermissionMode,
  PermissionRecord,
  PermissionRule,
  ToolKind,
} from './permission-types.js';

/** What decided a call, and why. */
export interface Verdict {
  decision: PermissionBehavior;
  source: PermissionRecord['source'];
  rule?: number;
  reason?: string;
}

export function modeVerdict(mode: PermissionMode, toolName: string, kind: ToolKind): Verdict {
  if (mode === 'bypass' || kind === 'read') return { decision: 'allow', source: 'mode' };
  if (mode === 'plan') {
    const what = kind === 'edit' ? 'changes files' : 'runs commands or has effects';
    return {
      decision: 'deny',
      source: 'mode',
      reason:
        `Permission denied: plan mode is read-only and "${toolName}" ${what}. ` +
        'Read and plan only; describe the change you would make instead of making it.',
    };
  }
  if (mode === 'accept-edits' && kind === 'edit') return { decision: 'allow', source: 'mode' };
  return { decision: 'ask', source: 'mode' };
}

export function ruleReason(rule: PermissionRule, index: number, toolName: string): string {
  const what =
    rule.command !== undefined
      ? ` command "${rule.command}"`
      : rule.path !== undefined
        ? ` path "${rule.path}"`
        : '';
  return `Permission denied by rule ${index + 1} (${rule.tool}${what}) for "${toolName}"${rule.reason ? `: ${rule.reason}` : '.'}`;
}

/**
 * A call's verdict from the rules, then the mode: deny wins over ask, ask over allow. A command
 * line is allowed by the rules when one allow rule allows all of it, or when each of its simple
 * commands is allowed by some allow rule (`git status && npm test` with rules for both).
 *
 * @example
 * decideCall(rules, 'default', 'bash', callSubject('bash', { command: 'npm test' }, {}), '/work/app');
 */
export function decideCall(
  rules: readonly CompiledRule[],
  mode: PermissionMode,
  toolName: string,
  subject: CallSubject,
  root: string | undefined,
): Verdict {
  const matching = rules.filter((r) => r.matches(toolName, subject, root));
  const readOnlyPlan = mode === 'plan' && subject.kind !== 'read';
  for (const decision of ['deny', 'ask', 'allow'] as const) {
    const hit = matching.find((r) => r.rule.decision === decision);
    if (!hit) continue;
    if (decision === 'deny')
      return { decision, source: 'rule', rule: hit.index, reason: ruleReason(hit.rule, hit.index, toolName) };
    if (decision === 'allow' && readOnlyPlan) break;
    if (decision === 'ask' && mode === 'bypass') return { decision: 'allow', source: 'mode' };
    return { decision, source: 'rule', rule: hit.index };
  }
  const analysis = subject.commands;
  if (!readOnlyPlan && analysis && analysis.unknown === undefined && analysis.commands.length > 0) {
    const allowing = analysis.commands.map((command) =>
      rules.find((r) => r.allowsCommand(toolName, subject, root, command)),
    );
    if (allowing.every((r) => r !== undefined))
      return { decision: 'allow', source: 'rule', rule: allowing[0]!.index };
  }
  return modeVerdict(mode, toolName, subject.kind);
}
