import { defaultIfEmpty, isObservable, Observable, Subscription, take, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import type { LazyAbortController } from '../util/lazy-abort.js';
import { clip } from '../util/clip.js';
import { isPromiseLike, toObservable } from '../util/to-observable.js';
import { flag, settled, type CallOutcome, type CallSettled } from './call-settled.js';
import { executeTool } from './execute-tool.js';
import { CallContext } from './call-context.js';
import type { AnyTool } from './tool.js';
import type { ApprovalDecision, Approver, GateDecision, ToolGate, ToolMiddleware } from './tool-hooks.js';
import { errorText, errorToolResult } from './tool-output.js';
import { validateToolCall } from './validate-args.js';

export { flag, type CallOutcome, type CallSettled } from './call-settled.js';

/** Everything one call's pipeline needs. */
export interface ToolCallEnv {
  runId: string;
  call: ToolCallPart;
  tool: AnyTool | undefined;
  toolNames: readonly string[];
  /** The call's cancellation (its signal is made only if the tool reads it). */
  cancel: LazyAbortController;
  scheduler: SchedulerLike;
  messages: readonly AgentMessage[];
  timeoutMs: number;
  /** The run lists this tool in `approvalRequired` (the tool's own `needsApproval` is checked too). */
  approvalRequired: boolean;
  approver?: Approver;
  toolGate?: ToolGate;
  middlewares: readonly ToolMiddleware[];
}

type Hook<T> = T | PromiseLike<T> | Observable<T>;

/**
 * Runs one tool call through its pipeline — arguments → `validate` → `preview` → approval →
 * gate → middlewares → `execute` (with its timeout) — emitting `tool-update` and approval
 * events on the way and ending with one `call-settled`. Every refusal or failure is an error
 * result the model reads; only `AgentStop` is passed on (as `stop`). Hooks that answer
 * synchronously keep the whole call synchronous.
 *
 * @example
 * runToolCall(env).subscribe((e) => e.type === 'call-settled' && console.log(e.result));
 */
export function runToolCall(env: ToolCallEnv): Observable<AgentEvent | CallSettled> {
  return new Observable<AgentEvent | CallSettled>((subscriber) => {
    const { call, tool } = env;
    // Every step that waits adds its subscription here; unsubscribing the call stops them all.
    const waiting = new Subscription();
    const emit = (event: AgentEvent) => subscriber.next(event);
    const finish = (outcome: CallSettled) => {
      subscriber.next(outcome);
      subscriber.complete();
    };
    const refuse = (text: string, outcome: CallOutcome = 'error') =>
      finish(settled(errorToolResult(text), outcome));
    // Continues with a hook's answer: at once for a plain value, else when it arrives.
    // A hook that throws or errors refuses the call with its message.
    const then = <T>(hook: () => Hook<T>, next: (value: T | undefined) => void) => {
      let value: Hook<T>;
      try {
        value = hook();
      } catch (error) {
        return refuse(errorText(error));
      }
      if (!isPromiseLike(value) && !isObservable(value)) return next(value);
      waiting.add(
        toObservable(value)
          .pipe(take(1), defaultIfEmpty(undefined))
          .subscribe({ next: (v) => next(v), error: (error: unknown) => refuse(errorText(error)) }),
      );
    };

    if (!tool) {
      const available = env.toolNames.length ? env.toolNames.join(', ') : 'none';
      return refuse(`Unknown tool "${clip(call.name, 100)}". Available tools: ${available}.`);
    }
    const validation = validateToolCall(tool, call);
    if (!validation.ok) return refuse(validation.error);
    const args = validation.args;
    const ctx = new CallContext(env.runId, call.id, call.name, env.cancel, env.scheduler, env.messages, emit);

    const execute = () => {
      const outcome = executeTool(
        { ...call, args },
        {
          tool,
          ctx,
          middlewares: env.middlewares,
          timeoutMs: env.timeoutMs,
          scheduler: env.scheduler,
          onTimeout: () => env.cancel.abort('timeout'),
        },
      );
      if (!isObservable(outcome)) return finish(outcome);
      waiting.add(outcome.subscribe(finish));
    };
    const gate = () => {
      const toolGate = env.toolGate;
      if (!toolGate) return execute();
      then<GateDecision | undefined | void>(
        () => toolGate({ call, tool }),
        (decision) =>
          decision && !decision.allowed
            ? refuse(decision.reason || 'Tool execution denied.', 'refused')
            : execute(),
      );
    };
    const approve = () => {
      if (!env.approvalRequired && !flag(tool.needsApproval, args, false)) return gate();
      emit({ type: 'approval-request', toolCallId: call.id, toolName: call.name, args });
      const approver = env.approver;
      const decide = (answer: ApprovalDecision | undefined) => {
        const decision =
          answer === undefined
            ? {
                approved: false,
                reason: approver
                  ? 'No approval decision was made.'
                  : 'Tool call needs approval but no approver is configured.',
              }
            : typeof answer === 'boolean'
              ? { approved: answer }
              : answer;
        const end: AgentEvent = {
          type: 'approval-end',
          toolCallId: call.id,
          toolName: call.name,
          approved: decision.approved,
        };
        if (decision.reason !== undefined) end.reason = decision.reason;
        emit(end);
        if (decision.approved) gate();
        else refuse(decision.reason ?? 'Tool call rejected.', 'rejected');
      };
      if (!approver) return decide(undefined);
      then(() => approver({ toolCallId: call.id, toolName: call.name, args }), decide);
    };

    then<void | string>(
      () => (tool.validate ? tool.validate(args, ctx) : undefined),
      (refusal) => {
        if (typeof refusal === 'string' && refusal) return refuse(refusal);
        if (tool.preview) {
          try {
            emit({
              type: 'tool-update',
              toolCallId: call.id,
              toolName: call.name,
              kind: 'preview',
              preview: tool.preview(args, ctx),
            });
          } catch {
            // A preview is advisory: a failing one must not block the call.
          }
        }
        approve();
      },
    );
    return waiting;
  });
}
