import { Subscription } from 'rxjs';
import type { AgentStop } from '../errors/agent-stop.js';
import type { LoopOperator, TurnContext } from '../loop/loop-event.js';
import { toolCalls } from '../messages/message-helpers.js';
import type { ToolCallPart, ToolResultMessage } from '../messages/types.js';
import { stopSignal } from '../stop/stop-signal.js';
import { flag, type CallSettled } from '../tools/call-settled.js';
import { runToolCall } from '../tools/run-tool-call.js';
import { LazyAbortController } from '../util/lazy-abort.js';
import type { AnyTool } from '../tools/tool.js';
import type { Approver, ToolGate, ToolMiddleware } from '../tools/tool-hooks.js';
import { errorText, errorToolResult } from '../tools/tool-output.js';
import { turnOperator, type TurnIO } from './turn-operator.js';

/** Result text of calls not started because a steering message arrived (agentcore's wording). */
export const SKIPPED_FOR_STEERING_TEXT = 'Skipped due to queued user message.';
/** Result text of calls not started because a tool threw `AgentStop`. */
export const SKIPPED_FOR_STOP_TEXT = 'Skipped because a tool stopped the run.';
/** Result text of an interruptible call cancelled by a steering message. */
export const CANCELLED_FOR_STEERING_TEXT = 'Tool call was cancelled: a user message arrived.';

/** Options of `executeTools`; each defaults to the run's config. */
export interface ExecuteToolsOptions {
  /** Calls running at once (default 8). */
  concurrency?: number;
  /** Per-call timeout (default 30 000 ms); a tool's own `timeoutMs` wins. */
  timeoutMs?: number;
  /** Consecutive failures that disable a tool for the rest of the run (default 3; 0 = never). */
  maxToolErrors?: number;
  approver?: Approver;
  approvalRequired?: readonly string[];
  toolGate?: ToolGate;
  middlewares?: readonly ToolMiddleware[];
}

interface Slot {
  call: ToolCallPart;
  tool: AnyTool | undefined;
  safe: boolean;
  state: 'waiting' | 'running' | 'done';
  cancel?: LazyAbortController;
  sub?: Subscription;
  settled?: CallSettled;
}

/**
 * Runs the tool calls of the turn's assistant message: each through validation, hooks,
 * approval, gate and middlewares (see `runToolCall`), up to `concurrency` at once, a call
 * whose tool is not `concurrencySafe` alone. `tool-end` events come in completion order; the
 * results enter the transcript in call order once all are done. Failures are error results
 * the model reads, never a failed run. A steering message (interrupt mode) skips the calls
 * not started and cancels running `interrupt: 'cancel'` tools; `AgentStop` ends the run after
 * this turn; a turn whose every call was rejected ends with `rejected`.
 *
 * @param options Concurrency, timeout, approvals, gate and middlewares.
 * @return A loop operator.
 *
 * @example
 * runAgent({ model, tools, prompt, pipeline: (t$) => t$.pipe(llmStep(), executeTools({ concurrency: 2, timeoutMs: 5000 })) });
 */
export function executeTools(options: ExecuteToolsOptions = {}): LoopOperator {
  return turnOperator((turn, io) => {
    const calls = toolCalls(turn.assistant);
    if (calls.length === 0) return io.done();
    return runBatch(turn, calls, options, io);
  });
}

function runBatch(
  turn: TurnContext,
  calls: ToolCallPart[],
  options: ExecuteToolsOptions,
  io: TurnIO,
): () => void {
  const run = turn.run;
  const config = run.config;
  const concurrency = Math.max(1, options.concurrency ?? config.toolConcurrency ?? 8);
  const maxToolErrors = options.maxToolErrors ?? config.maxToolErrors ?? 3;
  const approvalRequired = options.approvalRequired ?? config.approvalRequired ?? [];
  const toolNames = [...run.tools.keys()];
  const slots: Slot[] = calls.map((call) => {
    const tool = run.tools.get(call.name);
    return { call, tool, safe: flag(tool?.concurrencySafe, call.args, true), state: 'waiting' };
  });
  const work = new Subscription();
  let next = 0;
  let running = 0;
  let pumping = false;
  let finished = false;
  let skipText: string | undefined;
  let stop: { error: AgentStop; call: ToolCallPart } | undefined;

  const unsafeRunning = () => slots.some((s) => s.state === 'running' && !s.safe);

  const interruptQueues = run.steering.filter((s) => s.mode === 'interrupt').map((s) => s.queue);
  const checkInterrupt = () => {
    if (skipText || !interruptQueues.some((q) => q.size > 0)) return;
    skipText = SKIPPED_FOR_STEERING_TEXT;
    for (const slot of slots) {
      if (slot.state !== 'running' || slot.tool?.interrupt !== 'cancel') continue;
      slot.cancel?.abort('interrupted');
      slot.sub?.unsubscribe();
      settle(slot, {
        type: 'call-settled',
        result: errorToolResult(CANCELLED_FOR_STEERING_TEXT),
        outcome: 'refused',
      });
    }
  };
  for (const queue of interruptQueues) work.add(queue.pushed$.subscribe(() => (checkInterrupt(), pump())));

  const start = (slot: Slot) => {
    slot.state = 'running';
    running++;
    const { call } = slot;
    io.emit({ type: 'tool-start', toolCallId: call.id, toolName: call.name, args: call.args });
    const errors = run.toolErrors.get(call.name) ?? 0;
    if (maxToolErrors > 0 && errors >= maxToolErrors) {
      const text = `Tool "${call.name}" disabled after ${maxToolErrors} consecutive errors.`;
      return settle(slot, { type: 'call-settled', result: errorToolResult(text), outcome: 'refused' });
    }
    // An abort or unsubscribe of the run tears this batch down, which aborts the call (below).
    const cancel = new LazyAbortController();
    slot.cancel = cancel;
    slot.sub = runToolCall({
      runId: run.runId,
      call,
      tool: slot.tool,
      toolNames,
      cancel,
      scheduler: run.scheduler,
      messages: run.messages,
      timeoutMs: slot.tool?.timeoutMs ?? options.timeoutMs ?? config.toolTimeoutMs ?? 30_000,
      approvalRequired: approvalRequired.includes(call.name),
      approver: options.approver ?? config.approver,
      toolGate: options.toolGate ?? config.toolGate,
      middlewares: options.middlewares ?? config.middlewares ?? [],
    }).subscribe({
      next: (event) => (event.type === 'call-settled' ? settle(slot, event) : io.emit(event)),
      error: (error: unknown) =>
        settle(slot, { type: 'call-settled', result: errorToolResult(errorText(error)), outcome: 'error' }),
    });
  };

  const settle = (slot: Slot, result: CallSettled) => {
    if (slot.state === 'done') return;
    slot.state = 'done';
    slot.settled = result;
    running--;
    const name = slot.call.name;
    if (result.outcome === 'error') run.toolErrors.set(name, (run.toolErrors.get(name) ?? 0) + 1);
    else if (result.outcome === 'success') run.toolErrors.delete(name);
    if (result.stop && !stop) {
      stop = { error: result.stop, call: slot.call };
      skipText ??= SKIPPED_FOR_STOP_TEXT;
    }
    io.emit({
      type: 'tool-end',
      toolCallId: slot.call.id,
      toolName: name,
      args: slot.call.args,
      result: result.result,
      isError: result.result.isError,
    });
    checkInterrupt();
    pump();
  };

  const pump = () => {
    if (pumping || finished) return;
    pumping = true;
    while (next < slots.length && !skipText) {
      const slot = slots[next] as Slot;
      const canStart = running === 0 || (slot.safe && running < concurrency && !unsafeRunning());
      if (!canStart) break;
      next++;
      start(slot);
    }
    pumping = false;
    if (running === 0 && (next >= slots.length || skipText)) finish();
  };

  const finish = () => {
    if (finished) return;
    finished = true;
    work.unsubscribe();
    for (const slot of slots) {
      if (slot.state !== 'waiting') continue;
      const result = errorToolResult(skipText ?? SKIPPED_FOR_STEERING_TEXT);
      slot.state = 'done';
      slot.settled = { type: 'call-settled', result, outcome: 'refused' };
      io.emit({
        type: 'tool-start',
        toolCallId: slot.call.id,
        toolName: slot.call.name,
        args: slot.call.args,
      });
      io.emit({
        type: 'tool-end',
        toolCallId: slot.call.id,
        toolName: slot.call.name,
        args: slot.call.args,
        result,
        isError: true,
      });
    }
    const now = run.scheduler.now();
    const results: ToolResultMessage[] = slots.map((slot) => {
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
    if (stop) {
      turn.stop = stopSignal('stop-requested', stop.error.reason, {
        source: stop.call.name,
        ...(stop.error.context ? { context: stop.error.context } : {}),
      });
    } else if (slots.every((s) => s.settled?.outcome === 'rejected')) {
      turn.stop = stopSignal('rejected', `Every tool call of step ${turn.step} was rejected.`);
    }
    io.done();
  };

  checkInterrupt();
  pump();
  return () => {
    work.unsubscribe();
    for (const slot of slots) {
      if (slot.state !== 'running') continue;
      slot.cancel?.abort('cancelled');
      slot.sub?.unsubscribe();
    }
  };
}
