import type { SchedulerLike } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import type { LazyAbortController } from '../util/lazy-abort.js';
import type { Observable } from 'rxjs';
import type { ApprovalVerdict } from './approval-decision.js';
import { askElicitor } from '../elicitation/ask-elicitor.js';
import type { ElicitationAsk, ElicitationResponse, Elicitor } from '../elicitation/elicitation-types.js';
import { askApprover } from './nested-approval.js';
import type { ToolContext } from './tool.js';
import type { RunLineage } from './run-lineage.js';
import type { SubrunStep } from '../events/subrun-event.js';
import type { ApprovalRequest, Approver } from './tool-hooks.js';

/**
 * The `ToolContext` of one call. A class, not an object literal: its `signal` getter lives on
 * the prototype, so making one per call costs little (a literal with a getter is ~20x dearer).
 * Progress reported after the call ended is dropped.
 *
 * @example
 * const ctx = new CallContext(runId, call.id, call.name, cancel, scheduler, messages, emit);
 * tool.execute(args, ctx);
 */
export class CallContext implements ToolContext {
  /** False once the call has ended: later progress is dropped. */
  open = true;

  constructor(
    readonly runId: string,
    readonly toolCallId: string,
    readonly toolName: string,
    private readonly cancel: LazyAbortController,
    readonly scheduler: SchedulerLike,
    readonly messages: readonly AgentMessage[],
    private readonly emit: (event: AgentEvent) => void,
    private readonly approver?: Approver,
    readonly lineage?: RunLineage,
    private readonly elicitor?: Elicitor,
  ) {}

  /** Elicitations asked so far by this call (their ids derive from the call's). */
  private elicitations = 0;

  emitSubrun(subrun: { agent: string; runId: string }, event: AgentEvent): void {
    if (!this.open) return;
    const step: SubrunStep = { toolCallId: this.toolCallId, agent: subrun.agent, runId: subrun.runId };
    this.emit(
      event.type === 'subrun'
        ? { type: 'subrun', toolCallId: this.toolCallId, path: [step, ...event.path], event: event.event }
        : { type: 'subrun', toolCallId: this.toolCallId, path: [step], event },
    );
  }

  get signal(): AbortSignal {
    return this.cancel.signal;
  }

  readonly requestApproval = (request: ApprovalRequest): Observable<ApprovalVerdict> =>
    askApprover(this.approver, request, (event) => {
      if (this.open) this.emit(event);
    });

  readonly elicit = (ask: ElicitationAsk): Observable<ElicitationResponse> => {
    const elicitationId = `${this.toolCallId}/elicitation-${++this.elicitations}`;
    const request = { elicitationId, toolCallId: this.toolCallId, toolName: this.toolName, ...ask };
    return askElicitor(this.elicitor, request, (event) => {
      if (this.open) this.emit(event);
    });
  };

  // An own function, not a method: tools destructure it (`execute: (args, { progress }) => …`).
  readonly progress = (progress: unknown): void => {
    if (!this.open) return;
    this.emit({
      type: 'tool-update',
      toolCallId: this.toolCallId,
      toolName: this.toolName,
      kind: 'progress',
      progress,
    });
  };
}
