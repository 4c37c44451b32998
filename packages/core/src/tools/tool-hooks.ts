import type { Observable, ObservableInput } from 'rxjs';
import type { ToolResult } from '../events/agent-event.js';
import type { ToolCallPart } from '../messages/types.js';
import type { AnyTool, ToolContext } from './tool.js';

/**
 * A tool call waiting for a person.
 *
 * @example
 * const req: ApprovalRequest = { toolCallId: 'call_1', toolName: 'bash', args: { command: 'ls' } };
 */
export interface ApprovalRequest {
  toolCallId: string;
  toolName: string;
  args: unknown;
}

/**
 * A decision: `true` / `false`, or with a reason the model reads when rejected.
 *
 * @example
 * const decision: ApprovalDecision = { approved: false, reason: 'Use the read tool instead.' };
 */
export type ApprovalDecision = boolean | { approved: boolean; reason?: string };

/**
 * Decides approvals. Returning a Promise or an Observable lets it wait for a person, or race
 * a timeout on the scheduler.
 *
 * @example
 * const approver: Approver = (req) => race(
 *   decisions$.pipe(filter((d) => d.id === req.toolCallId), map((d) => d.ok), take(1)),
 *   timer(60_000, scheduler).pipe(map(() => ({ approved: false, reason: 'No answer within a minute.' }))),
 * );
 */
export type Approver = (
  request: ApprovalRequest,
) => ApprovalDecision | PromiseLike<ApprovalDecision> | Observable<ApprovalDecision>;

/**
 * A gate's verdict; `undefined` allows.
 *
 * @example
 * const decision: GateDecision = { allowed: false, reason: 'Writes outside the workspace are not allowed.' };
 */
export interface GateDecision {
  allowed: boolean;
  reason?: string;
}

/**
 * A policy check after validation and approval: deny with a reason the model reads.
 *
 * @example
 * const gate: ToolGate = ({ call }) => (call.name === 'bash' && /rm -rf/.test(String((call.args as any).command))
 *   ? { allowed: false, reason: 'Destructive commands are not allowed.' } : undefined);
 */
export type ToolGate = (request: {
  call: ToolCallPart;
  tool: AnyTool;
}) => GateDecision | undefined | void | PromiseLike<GateDecision | undefined | void>;

/**
 * Wraps execution. The first middleware is the outermost; it may rewrite the call (its args)
 * before `next`, transform the result, or short-circuit by not calling `next`.
 *
 * @example
 * const logging: ToolMiddleware = (call, ctx, next) => {
 *   console.log('→', call.name);
 *   return next(call).pipe(tap((r) => console.log('←', call.name, r.isError)));
 * };
 */
export type ToolMiddleware = (
  call: ToolCallPart,
  ctx: ToolContext,
  next: (call: ToolCallPart) => Observable<ToolResult>,
) => ObservableInput<ToolResult>;
