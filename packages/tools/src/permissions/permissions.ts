import { asyncScheduler, isObservable, Subject, tap, type Observable, type SchedulerLike } from 'rxjs';
import {
  AgentConfigError,
  type AnyTool,
  type ApprovalDecision,
  type Approver,
  type GateDecision,
  type ToolGate,
} from '@rxagent/core';
import { resolveInRoot } from '../resolve-in-root.js';
import { callSubject, type CallSubject } from './call-subject.js';
import { decideCall, type Verdict } from './decide-call.js';
import { compileRule, type CompiledRule } from './match-rule.js';
import { pathPolicyOf, realPathRefusal, underPathPolicy } from './path-rules.js';
import type { PermissionMode, PermissionRecord, PermissionRule, ToolKind } from './permission-types.js';

const MODES: readonly PermissionMode[] = ['default', 'accept-edits', 'plan', 'bypass'];
const MAX_AUDIT_TEXT = 200;

/**
 * Options of `permissions`.
 *
 * @example
 * permissions({ mode: 'default', rules: [{ tool: 'bash', command: 'npm test', decision: 'allow' }], roots: ['/work/app'],
 *   audit: (line) => auditFile.write(line) });
 */
export interface PermissionsOptions {
  mode?: PermissionMode;
  rules?: readonly PermissionRule[];
  /** Folders path arguments must stay in (symlinks resolved, as the file tools do); relative paths are against the first. */
  roots?: readonly string[];
  /** Receives every decision as one JSON line (with its `\n`): e.g. `(line) => stream.write(line)`. */
  audit?: (line: string) => void;
  /** Kinds of your own tools (the built-in tools are known); unknown tools count as commands. */
  kinds?: Readonly<Record<string, ToolKind>>;
  /** Where the audit's `at` comes from (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
}

/**
 * A permission policy, to plug into a run: `tools(list)` for the approval policy (a call the
 * policy asks about waits for approval), `toolGate` for the refusals, `approver(yours)` to
 * audit what people answered.
 *
 * @example
 * const policy: Permissions = permissions({ mode: 'plan', roots: [root] });
 * runAgent({ model, tools: policy.tools(fileTools({ root }).all), toolGate: policy.toolGate, prompt });
 */
export interface Permissions {
  readonly mode: PermissionMode;
  /** Changes the mode for calls decided from now on. */
  setMode(mode: PermissionMode): void;
  /** The tools with `needsApproval` set from the policy (ask → approval; a tool's own rule kept otherwise). */
  tools(list: readonly AnyTool[]): AnyTool[];
  /** Refuses what the policy denies, with the reason the model reads; fails closed. */
  readonly toolGate: ToolGate;
  /** Wraps an approver so each answer is audited. */
  approver(inner: Approver): Approver;
  /** Every decision, as it is made (hot). */
  readonly audit$: Observable<PermissionRecord>;
}

const isDecisions = (value: ReturnType<Approver>): value is Observable<ApprovalDecision> =>
  isObservable(value);

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';

const clipped = (text: string) => (text.length > MAX_AUDIT_TEXT ? `${text.slice(0, MAX_AUDIT_TEXT)}…` : text);

function checkMode(mode: unknown): PermissionMode {
  if (!MODES.includes(mode as PermissionMode)) {
    throw new AgentConfigError(
      `permissions: mode must be one of ${MODES.join(', ')}; got ${JSON.stringify(mode)}.`,
    );
  }
  return mode as PermissionMode;
}

function checkRules(rules: readonly PermissionRule[]): CompiledRule[] {
  return rules.map((rule, i) => {
    if (typeof rule?.tool !== 'string' || !['allow', 'deny', 'ask'].includes(rule.decision)) {
      throw new AgentConfigError(
        `permissions: rule ${i + 1} needs a tool (name or glob) and a decision of allow, deny or ask; got ${JSON.stringify(rule)}.`,
      );
    }
    if (rule.command !== undefined && rule.command.trim() === '') {
      throw new AgentConfigError(
        `permissions: rule ${i + 1} has an empty command prefix; leave command out to match any.`,
      );
    }
    return compileRule(rule, i);
  });
}

/**
 * A permission engine (agentcore's `permission` package) as a `toolGate` and an approval
 * policy. Each call is decided from, in order: the rules (deny wins over ask, ask over allow;
 * tool names and globs, path globs, command prefixes), then the mode (`default` asks before
 * edits and commands, `accept-edits` lets edits through, `plan` refuses anything but reads,
 * `bypass` asks for nothing). In plan mode an allow rule does not make a write possible; deny
 * rules and roots hold in every mode. Path arguments outside `roots` are refused (symlinks
 * resolved, as the file tools confine themselves). Every decision goes to `audit` (JSON lines)
 * and `audit$`; refusals reach the model as error results saying why and what to do instead.
 * Fails closed: an error while deciding refuses the call.
 *
 * @example
 * const policy = permissions({
 *   mode: 'default',
 *   rules: [{ tool: 'bash', command: 'git status', decision: 'allow' }, { tool: 'bash', command: 'rm', decision: 'deny' }],
 *   roots: ['/work/app'],
 *   audit: (line) => process.stderr.write(line),
 * });
 * const agent = new Agent({ model, tools: policy.tools(fileTools({ root: '/work/app' }).all), toolGate: policy.toolGate });
 */
export function permissions(options: PermissionsOptions = {}): Permissions {
  let mode = checkMode(options.mode ?? 'default');
  const rules = checkRules(options.rules ?? []);
  const roots = [...(options.roots ?? [])];
  if (roots.some((r) => typeof r !== 'string' || r === '')) {
    throw new AgentConfigError('permissions: roots must be folder paths (non-empty strings).');
  }
  const kinds = options.kinds ?? {};
  const scheduler = options.scheduler ?? asyncScheduler;
  const records = new Subject<PermissionRecord>();

  const record = (entry: Omit<PermissionRecord, 'at' | 'mode'>) => {
    const full: PermissionRecord = { at: scheduler.now(), mode, ...entry };
    if (full.path !== undefined) full.path = clipped(full.path);
    if (full.command !== undefined) full.command = clipped(full.command);
    records.next(full);
    options.audit?.(`${JSON.stringify(full)}\n`);
  };

  const pathEnv = { rules, roots, kinds };
  const pathPolicy = pathPolicyOf(pathEnv);
  const hasPathRules = rules.some((r) => r.rule.path !== undefined);

  /** Rules and mode: what needs no file system. */
  const decide = (toolName: string, subject: CallSubject): Verdict =>
    decideCall(rules, mode, toolName, subject, roots[0]);

  const outsideRoots = async (requested: string): Promise<string | undefined> => {
    if (roots.length === 0) return undefined;
    const candidates = requested.startsWith('/') ? roots : roots.slice(0, 1);
    for (const root of candidates) {
      try {
        await resolveInRoot(root, requested);
        return undefined;
      } catch {
        // not inside this one
      }
    }
    return (
      `Permission denied: the path "${clipped(requested)}" is outside the allowed folders (${roots.join(', ')}). ` +
      'Use a path inside them, relative to the first.'
    );
  };

  const toolGate: ToolGate = async ({ call, tool }): Promise<GateDecision> => {
    let subject: CallSubject = { kind: 'command' };
    try {
      subject = callSubject(call.name, call.args, kinds);
      const base = {
        toolCallId: call.id,
        tool: call.name,
        kind: subject.kind,
        path: subject.path,
        command: subject.command,
      };
      const verdict = decide(call.name, subject);
      const real =
        verdict.decision === 'deny' || !hasPathRules
          ? undefined
          : await realPathRefusal(pathEnv, pathPolicy, tool, call.name, subject, verdict, decide);
      if (real) {
        record({ ...base, decision: 'deny', source: 'rule', reason: real });
        return { allowed: false, reason: real };
      }
      if (verdict.decision !== 'deny' && subject.path !== undefined) {
        const outside = await outsideRoots(subject.path);
        if (outside) {
          record({ ...base, decision: 'deny', source: 'roots', reason: outside });
          return { allowed: false, reason: outside };
        }
      }
      record({ ...base, ...verdict });
      // An `ask` that reached the gate was approved (the approval runs before the gate).
      return verdict.decision === 'deny' ? { allowed: false, reason: verdict.reason } : { allowed: true };
    } catch (error) {
      const reason = `Permission denied: the permission check failed (${clipped(error instanceof Error ? error.message : String(error))}), so the call was refused.`;
      record({
        toolCallId: call.id,
        tool: call.name,
        kind: subject.kind,
        decision: 'deny',
        source: 'error',
        reason,
      });
      return { allowed: false, reason };
    }
  };

  const wrapTool = (given: AnyTool): AnyTool => {
    const tool = underPathPolicy(given, pathPolicy);
    const own = tool.needsApproval;
    const needsApproval = (args: unknown): boolean => {
      const verdict = decide(tool.name, callSubject(tool.name, args, kinds));
      if (verdict.decision === 'ask') return true;
      if (verdict.decision === 'deny' || verdict.source !== 'mode' || mode === 'bypass') return false;
      return typeof own === 'function' ? own.call(tool, args) !== false : own === true;
    };
    return { ...tool, needsApproval };
  };

  return {
    get mode() {
      return mode;
    },
    setMode(next: PermissionMode) {
      mode = checkMode(next);
    },
    tools: (list) => list.map(wrapTool),
    toolGate,
    approver: (inner) => (request) => {
      const subject = callSubject(request.toolName, request.args, kinds);
      const base = {
        toolCallId: request.toolCallId,
        tool: request.toolName,
        kind: subject.kind,
        path: subject.path,
        command: subject.command,
      };
      const audited = (answer: unknown) => {
        const approved =
          answer === true ||
          (typeof answer === 'object' &&
            answer !== null &&
            (answer as { approved?: unknown }).approved === true);
        const reason =
          typeof answer === 'object' && answer !== null ? (answer as { reason?: unknown }).reason : undefined;
        record({
          ...base,
          decision: 'ask',
          source: 'approval',
          approved,
          ...(typeof reason === 'string' ? { reason } : {}),
        });
      };
      const answer = inner(request);
      if (isDecisions(answer)) return answer.pipe(tap((v: ApprovalDecision) => audited(v)));
      if (isPromiseLike(answer)) return Promise.resolve(answer).then((v) => (audited(v), v));
      audited(answer);
      return answer;
    },
    audit$: records.asObservable(),
  };
}
