import { clip } from '../util/clip.js';
import { describeValue } from '../util/describe-value.js';
import type { AnyTool } from './tool.js';
import { errorText } from './tool-output.js';

/**
 * Whether a call must wait for approval, or is refused outright because its `needsApproval`
 * function failed.
 *
 * @example
 * const need: ApprovalNeed = { refused: 'needsApproval for tool "bash" threw: boom; the call was refused.' };
 */
export type ApprovalNeed = { needed: boolean } | { refused: string };

/**
 * The outcome of an approval: only an explicit yes approves; `reason` is what the model reads
 * when the call is not approved.
 *
 * @example
 * const verdict: ApprovalVerdict = { approved: false, reason: 'Use the read tool instead.' };
 */
export interface ApprovalVerdict {
  approved: boolean;
  reason?: string;
}

/** The reason of a rejection that gave none. */
const REJECTED = 'Tool call rejected.';
const NO_APPROVER = 'Tool call needs approval but no approver is configured.';

/**
 * Decides whether a call needs approval, failing closed: a call listed in `approvalRequired`
 * always does (its tool's `needsApproval` is then not consulted); `needsApproval` may be a
 * boolean or a function of the arguments; a function that throws refuses the call, and one
 * that returns anything but a boolean (a Promise, a string…) counts as needing approval.
 *
 * @param tool The called tool (its `name` and `needsApproval`).
 * @param args The validated arguments.
 * @param listedInApprovalRequired The run names this tool in `approvalRequired`.
 * @return `{ needed }`, or `{ refused: reason }` for an error result with that reason.
 *
 * @example
 * approvalNeeded({ name: 'bash', needsApproval: ({ command }) => command.includes('rm') }, { command: 'ls' }, false);
 * // { needed: false }
 */
export function approvalNeeded(
  tool: Pick<AnyTool, 'name' | 'needsApproval'>,
  args: unknown,
  listedInApprovalRequired: boolean,
): ApprovalNeed {
  if (listedInApprovalRequired) return { needed: true };
  const rule: unknown = tool.needsApproval;
  if (rule === undefined || rule === false) return { needed: false };
  if (typeof rule !== 'function') return { needed: true };
  let answer: unknown;
  try {
    answer = (rule as (args: unknown) => unknown).call(tool, args);
  } catch (error) {
    const name = clip(tool.name, 100);
    return {
      refused: `needsApproval for tool "${name}" threw: ${clip(errorText(error), 500)}; the call was refused.`,
    };
  }
  return { needed: answer !== false };
}

/**
 * Reads an approver's answer, failing closed: only `true` or an object with `approved: true`
 * approves (its `reason` kept when a string); `false` or `{ approved: false, reason? }` rejects
 * with the reason (default `'Tool call rejected.'`); anything else (`undefined`, `null`, `{}`,
 * `{ approved: 'false' }`, a number…) refuses with a reason saying what the approver returned
 * and what it must return. Without an approver, the call is refused as unapprovable.
 *
 * @param answer What the approver returned (or emitted); `undefined` when it gave nothing.
 * @param hasApprover Whether an approver is configured.
 * @return The verdict, with the reason the model reads when not approved.
 *
 * @example
 * toApprovalDecision({ approved: false, reason: 'Not on Fridays.' }, true); // { approved: false, reason: 'Not on Fridays.' }
 * toApprovalDecision('yes', true); // { approved: false, reason: 'The approver returned "yes" (a string), …' }
 */
export function toApprovalDecision(answer: unknown, hasApprover: boolean): ApprovalVerdict {
  if (!hasApprover) return { approved: false, reason: NO_APPROVER };
  if (answer === true) return { approved: true };
  if (answer === false) return { approved: false, reason: REJECTED };
  if (typeof answer === 'object' && answer !== null) {
    const { approved, reason } = answer as { approved?: unknown; reason?: unknown };
    if (approved === true)
      return typeof reason === 'string' ? { approved: true, reason } : { approved: true };
    if (approved === false)
      return { approved: false, reason: typeof reason === 'string' && reason ? reason : REJECTED };
  }
  return {
    approved: false,
    reason:
      `The approver returned ${describeValue(answer)}; it must return true, false or ` +
      '{ approved: boolean, reason?: string }. The call was refused.',
  };
}
