import { Subscription } from 'rxjs';
import type { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { MessageQueue } from '../loop/message-queue.js';
import type { TurnContext } from '../loop/loop-event.js';
import type { ToolCallPart, ToolResultMessage } from '../messages/types.js';
import { stopSignal } from '../stop/stop-signal.js';
import { flag, type CallSettled } from '../tools/call-settled.js';
import { ToolCallRun, type CallSink } from '../tools/run-tool-call.js';
import type { AnyTool } from '../tools/tool.js';
import { errorToolResult } from '../tools/tool-output.js';
import { LazyAbortController } from '../util/lazy-abort.js';
import type { ExecuteToolsOptions } from './execute-tools.js';
import type { TurnIO } from './turn-operator.js';

/**
 * Result text of calls not started because a steering message arrived (agentcore's wording).
 *
 * @example
 * const skipped = messages.filter((m) => m.role === 'tool' && contentText(m) === SKIPPED_FOR_STEERING_TEXT);
 */
export const SKIPPED_FOR_STEERING_TEXT = 'Skipped due to queued user message.';
/**
 * Result text of calls not started because a tool threw `AgentStop`.
 *
 * @example
 * expect(contentText(toolResult)).toBe(SKIPPED_FOR_STOP_TEXT);
 */
export const SKIPPED_FOR_STOP_TEXT = 'Skipped because a tool stopped the run.';
/**
 * Result text of an interruptible call cancelled by a steering message.
 *
 * @example
 * expect(contentText(toolResult)).toBe(CANCELLED_FOR_STEERING_TEXT); // an `interrupt: 'cancel'` tool
 */
export const CANCELLED_FOR_STEERING_TEXT = 'Tool call was cancelled: a user message arrived.';

/** One call of the batch; the sink its `ToolCallRun` reports to. */
class Slot implements CallSink {
  state: 'waiting' | 'running' | 'done' = 'waiting';
  cancel?: LazyAbortController;
  run?: ToolCallRun;
  settled?: CallSettled;

  constructor(
    private readonly batch: ToolBatch,
    readonly call: ToolCallPart,
    readonly tool: AnyTool | undefined,
    readonly safe: boolean,
  ) {}

  emit(event: AgentEvent): void {
    this.batch.io.emit(event);
  }

  settle(outcome: CallSettled): void {
    this.batch.settle(this, outcome);
  }
}

/**
 * The tool calls of one turn: started in order, up to `concurrency` at once (a call whose tool
 * is not concurrency-safe alone), their results put in the transcript in call order once all
 * are done. Steering (interrupt mode) stops starting calls and cancels `interrupt: 'cancel'`
 * tools; `AgentStop` stops starting calls and ends the run after the turn; the breaker counts
 * consecutive failures per tool. It is the batch's Subscription: unsubscribing aborts the
 * running calls.
 *
 * @example
 * const batch = new ToolBatch(turn, toolCalls(turn.assistant), options, io).start();
 */
export class ToolBatch extends Subscription {
  private readonly slots: Slot[];
  private readonly concurrency: number;
  private readonly maxToolErrors: number;
  private readonly interruptQueues: MessageQueue[];
  private next = 0;
  private running = 0;
  private pumping = false;
  private finished = false;
  private skipText?: string;
  private stop?: { error: AgentStop; call: ToolCallPart };

  constructor(
    private readonly turn: TurnContext,
    calls: readonly ToolCallPart[],
    private readonly options: ExecuteToolsOptions,
    readonly io: TurnIO,
  ) {
    super();
    const run = turn.run;
    this.concurrency = Math.max(1, options.concurrency ?? run.config.toolConcurrency ?? 8);
    this.maxToolErrors = options.maxToolErrors ?? run.config.maxToolErrors ?? 3;
    this.slots = calls.map((call) => {
      const tool = run.tools.get(call.name);
      return new Slot(this, call, tool, flag(tool?.concurrencySafe, call.args, true));
    });
    this.interruptQueues = [];
    for (const s of run.steering) if (s.mode === 'interrupt') this.interruptQueues.push(s.queue);
  }

  /** Starts as many calls as may run; returns this batch (its teardown). */
  start(): this {
    for (const queue of this.interruptQueues) {
      this.add(queue.pushed$.subscribe(() => (this.checkInterrupt(), this.pump())));
    }
    this.checkInterrupt();
    this.pump();
    return this;
  }

  override unsubscribe(): void {
    super.unsubscribe();
    for (const slot of this.slots) {
      if (slot.state !== 'running') continue;
      slot.cancel?.abort('cancelled');
      slot.run?.unsubscribe();
    }
  }

  /** A call ended: count it for the breaker, report it, start what may start now. */
  settle(slot: Slot, outcome: CallSettled): void {
    if (slot.state === 'done') return;
    slot.state = 'done';
    slot.settled = outcome;
    this.running--;
    const { call } = slot;
    const errors = this.turn.run.toolErrors;
    if (outcome.outcome === 'error') errors.set(call.name, (errors.get(call.name) ?? 0) + 1);
    else if (outcome.outcome === 'success' && errors.size > 0) errors.delete(call.name);
    if (outcome.stop && !this.stop) {
      this.stop = { error: outcome.stop, call };
      this.skipText ??= SKIPPED_FOR_STOP_TEXT;
    }
    this.io.emit({
      type: 'tool-end',
      toolCallId: call.id,
      toolName: call.name,
      args: call.args,
      result: outcome.result,
      isError: outcome.result.isError,
    });
    this.checkInterrupt();
    this.pump();
  }

  private checkInterrupt(): void {
    if (this.skipText || !this.interruptQueues.some((q) => q.size > 0)) return;
    this.skipText = SKIPPED_FOR_STEERING_TEXT;
    for (const slot of this.slots) {
      if (slot.state !== 'running' || slot.tool?.interrupt !== 'cancel') continue;
      slot.cancel?.abort('interrupted');
      slot.run?.unsubscribe();
      this.settle(slot, {
        type: 'call-settled',
        result: errorToolResult(CANCELLED_FOR_STEERING_TEXT),
        outcome: 'refused',
      });
    }
  }

  private pump(): void {
    if (this.pumping || this.finished) return;
    this.pumping = true;
    const slots = this.slots;
    while (this.next < slots.length && !this.skipText) {
      const slot = slots[this.next] as Slot;
      const canStart =
        this.running === 0 ||
        (slot.safe &&
          this.running < this.concurrency &&
          !slots.some((s) => s.state === 'running' && !s.safe));
      if (!canStart) break;
      this.next++;
      this.startCall(slot);
    }
    this.pumping = false;
    if (this.running === 0 && (this.next >= slots.length || this.skipText)) this.finish();
  }

  private startCall(slot: Slot): void {
    slot.state = 'running';
    this.running++;
    const { call } = slot;
    const { run, options } = { run: this.turn.run, options: this.options };
    const config = run.config;
    this.io.emit({ type: 'tool-start', toolCallId: call.id, toolName: call.name, args: call.args });
    const errors = run.toolErrors.get(call.name) ?? 0;
    if (this.maxToolErrors > 0 && errors >= this.maxToolErrors) {
      const text = `Tool "${call.name}" disabled after ${this.maxToolErrors} consecutive errors.`;
      return this.settle(slot, { type: 'call-settled', result: errorToolResult(text), outcome: 'refused' });
    }
    // An abort or unsubscribe of the run tears this batch down, which aborts the call.
    slot.cancel = new LazyAbortController();
    slot.run = new ToolCallRun(
      {
        runId: run.runId,
        call,
        tool: slot.tool,
        tools: run.tools,
        cancel: slot.cancel,
        scheduler: run.scheduler,
        messages: run.messages,
        timeoutMs: slot.tool?.timeoutMs ?? options.timeoutMs ?? config.toolTimeoutMs ?? 30_000,
        approvalRequired: (options.approvalRequired ?? config.approvalRequired ?? []).includes(call.name),
        approver: options.approver ?? config.approver,
        toolGate: options.toolGate ?? config.toolGate,
        middlewares: options.middlewares ?? config.middlewares ?? [],
      },
      slot,
    ).start();
  }

  private finish(): void {
    if (this.finished) return;
    this.finished = true;
    super.unsubscribe(); // the steering listeners; the calls are all done
    const { io, turn } = this;
    for (const slot of this.slots) {
      if (slot.state !== 'waiting') continue;
      const result = errorToolResult(this.skipText ?? SKIPPED_FOR_STEERING_TEXT);
      slot.state = 'done';
      slot.settled = { type: 'call-settled', result, outcome: 'refused' };
      const { id, name, args } = slot.call;
      io.emit({ type: 'tool-start', toolCallId: id, toolName: name, args });
      io.emit({ type: 'tool-end', toolCallId: id, toolName: name, args, result, isError: true });
    }
    const now = turn.run.scheduler.now();
    const results: ToolResultMessage[] = this.slots.map((slot) => {
      const result = slot.settled?.result ?? errorToolResult('Tool call was cancelled.');
      return {
        role: 'tool',
        toolCallId: slot.call.id,
        toolName: slot.call.name,
        content: result.content,
        isError: result.isError,
        timestamp: now,
      };
    });
    for (const message of results) {
      io.emit({ type: 'message-start', message });
      io.emit({ type: 'message-end', message });
    }
    turn.toolResults = results;
    const stop = this.stop;
    if (stop) {
      turn.stop = stopSignal('stop-requested', stop.error.reason, {
        source: stop.call.name,
        ...(stop.error.context ? { context: stop.error.context } : {}),
      });
    } else if (this.slots.every((s) => s.settled?.outcome === 'rejected')) {
      turn.stop = stopSignal('rejected', `Every tool call of step ${turn.step} was rejected.`);
    }
    io.done();
  }
}
