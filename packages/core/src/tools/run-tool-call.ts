import { defaultIfEmpty, isObservable, Subscription, take, type Observable, type SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import { clip } from '../util/clip.js';
import type { LazyAbortController } from '../util/lazy-abort.js';
import { isPromiseLike, toObservable } from '../util/to-observable.js';
import { CallContext } from './call-context.js';
import { flag, settled, type CallOutcome, type CallSettled } from './call-settled.js';
import { executeTool } from './execute-tool.js';
import type { AnyTool } from './tool.js';
import type { ApprovalDecision, Approver, GateDecision, ToolGate, ToolMiddleware } from './tool-hooks.js';
import { errorText, errorToolResult } from './tool-output.js';
import { validateToolCall } from './validate-args.js';

/** Everything one call's pipeline needs. */
export interface ToolCallEnv {
  runId: string;
  call: ToolCallPart;
  tool: AnyTool | undefined;
  /** The run's tools (named in the error for an unknown tool). */
  tools: ReadonlyMap<string, AnyTool>;
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

/** Where a call reports: its events as they happen, then its one outcome. */
export interface CallSink {
  emit(event: AgentEvent): void;
  settle(outcome: CallSettled): void;
}

type Hook<T> = T | PromiseLike<T> | Observable<T>;

const noDecision = (hasApprover: boolean) => ({
  approved: false,
  reason: hasApprover
    ? 'No approval decision was made.'
    : 'Tool call needs approval but no approver is configured.',
});

/**
 * One tool call through its pipeline — arguments → `validate` → `preview` → approval → gate →
 * middlewares → `execute` (with its timeout) — reporting `tool-update` and approval events to
 * its sink on the way and ending with one outcome. Every refusal or failure is an error result
 * the model reads; only `AgentStop` is passed on (as `stop`). Hooks that answer synchronously
 * keep the whole call synchronous. It is the call's Subscription: unsubscribing stops every
 * step still waiting.
 *
 * @example
 * const call = new ToolCallRun(env, { emit: (e) => events.push(e), settle: (o) => done(o) });
 * call.start();
 */
export class ToolCallRun extends Subscription {
  private args: unknown;
  private ctx?: CallContext;
  private finished = false;

  constructor(
    private readonly env: ToolCallEnv,
    private readonly sink: CallSink,
  ) {
    super();
  }

  /** Runs the pipeline as far as it goes synchronously. */
  start(): this {
    const { call, tool } = this.env;
    if (!tool) {
      const available = this.env.tools.size ? [...this.env.tools.keys()].join(', ') : 'none';
      this.refuse(`Unknown tool "${clip(call.name, 100)}". Available tools: ${available}.`);
      return this;
    }
    const validation = validateToolCall(tool, call);
    if (!validation.ok) {
      this.refuse(validation.error);
      return this;
    }
    this.args = validation.args;
    const env = this.env;
    this.ctx = new CallContext(env.runId, call.id, call.name, env.cancel, env.scheduler, env.messages, (e) =>
      this.sink.emit(e),
    );
    if (tool.validate) {
      const validate = tool.validate.bind(tool);
      this.then(
        () => validate(this.args, this.context),
        (refusal) => this.afterValidate(refusal),
      );
    } else this.afterValidate(undefined);
    return this;
  }

  private get tool(): AnyTool {
    return this.env.tool as AnyTool;
  }

  private get context(): CallContext {
    return this.ctx as CallContext;
  }

  private afterValidate(refusal: void | string | undefined): void {
    if (typeof refusal === 'string' && refusal) return this.refuse(refusal);
    const { call } = this.env;
    if (this.tool.preview) {
      try {
        const preview = this.tool.preview(this.args, this.context);
        this.sink.emit({
          type: 'tool-update',
          toolCallId: call.id,
          toolName: call.name,
          kind: 'preview',
          preview,
        });
      } catch {
        // A preview is advisory: a failing one must not block the call.
      }
    }
    this.approve();
  }

  private approve(): void {
    const { call, approver } = this.env;
    if (!this.env.approvalRequired && !flag(this.tool.needsApproval, this.args, false)) return this.gate();
    this.sink.emit({ type: 'approval-request', toolCallId: call.id, toolName: call.name, args: this.args });
    if (!approver) return this.decide(undefined);
    this.then(
      () => approver({ toolCallId: call.id, toolName: call.name, args: this.args }),
      (answer) => this.decide(answer),
    );
  }

  private decide(answer: ApprovalDecision | undefined): void {
    const { call } = this.env;
    const decision =
      answer === undefined
        ? noDecision(this.env.approver !== undefined)
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
    this.sink.emit(end);
    if (decision.approved) this.gate();
    else this.refuse(decision.reason ?? 'Tool call rejected.', 'rejected');
  }

  private gate(): void {
    const toolGate = this.env.toolGate;
    if (!toolGate) return this.execute();
    this.then<GateDecision | undefined | void>(
      () => toolGate({ call: this.env.call, tool: this.tool }),
      (decision) =>
        decision && !decision.allowed
          ? this.refuse(decision.reason || 'Tool execution denied.', 'refused')
          : this.execute(),
    );
  }

  private execute(): void {
    const { env } = this;
    const outcome = executeTool(
      { ...env.call, args: this.args },
      {
        tool: this.tool,
        ctx: this.context,
        middlewares: env.middlewares,
        timeoutMs: env.timeoutMs,
        scheduler: env.scheduler,
        onTimeout: () => env.cancel.abort('timeout'),
      },
    );
    if (!isObservable(outcome)) return this.finish(outcome);
    this.add(outcome.subscribe((o) => this.finish(o)));
  }

  /**
   * Continues with a hook's answer: at once for a plain value, else when it arrives (the wait
   * is part of this call's subscription). A hook that throws or errors refuses the call.
   */
  private then<T>(hook: () => Hook<T>, next: (value: T | undefined) => void): void {
    let value: Hook<T>;
    try {
      value = hook();
    } catch (error) {
      return this.refuse(errorText(error));
    }
    if (!isPromiseLike(value) && !isObservable(value)) return next(value);
    this.add(
      toObservable(value)
        .pipe(take(1), defaultIfEmpty(undefined))
        .subscribe({ next: (v) => next(v), error: (error: unknown) => this.refuse(errorText(error)) }),
    );
  }

  private refuse(text: string, outcome: CallOutcome = 'error'): void {
    this.finish(settled(errorToolResult(text), outcome));
  }

  private finish(outcome: CallSettled): void {
    if (this.finished || this.closed) return;
    this.finished = true;
    this.sink.settle(outcome);
  }
}
