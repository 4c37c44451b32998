import { asyncScheduler, Subject, Subscription, type Observer, type Subscriber } from 'rxjs';
import { AgentConfigError, StopGuardEscalationError } from '../errors/agent-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { toolErrorResult } from '../messages/message-helpers.js';
import { repairMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import { attachConfigSources } from '../operators/steer.js';
import { stopSignal, type StopSignal } from '../stop/stop-signal.js';
import { RunWatch } from './run-watch.js';
import { defaultPipeline } from './default-pipeline.js';
import type { LoopEvent, TurnContext } from './loop-event.js';
import { toUserMessage } from './message-queue.js';
import type { RunAgentConfig } from './run-config.js';
import { LoopRunContext } from './run-context.js';
import { stepResultOf } from './step-result.js';

/**
 * The loop's subscription to its pipeline. An Observer and a Subscription at once, so RxJS
 * subscribes it as it is (no wrapper per pending run).
 */
class PipelineOutput extends Subscription implements Observer<LoopEvent> {
  constructor(private readonly loop: RunLoop) {
    super();
  }

  next(item: LoopEvent): void {
    this.loop.onOutput(item);
  }

  error(error: unknown): void {
    this.loop.fail(error);
  }

  complete(): void {
    this.loop.fail(
      new AgentConfigError(
        'The pipeline completed before the run ended: its operators must pass every item on.',
      ),
    );
  }
}

/** The loop of one subscription to `runAgent`: feeds turns into the pipeline and decides. */
export class RunLoop {
  private readonly run: LoopRunContext;
  private readonly input = new Subject<LoopEvent>();
  private readonly feedQueue: LoopEvent[] = [];
  private readonly maxSteps: number;
  private readonly prompt: AgentMessage[];
  private readonly firstNewMessage: number;
  private readonly repairs: string[] = [];
  private pipelineSub?: Subscription;
  private detachSources?: () => void;
  private draining = false;
  private ended = false;
  // What the loop saw, to close the transcript on an abort.
  private readonly watch = new RunWatch();

  constructor(
    private readonly config: RunAgentConfig,
    private readonly subscriber: Subscriber<AgentEvent>,
  ) {
    const scheduler = config.scheduler ?? asyncScheduler;
    const now = scheduler.now();
    const { messages: prior, repairs } = repairMessageSequence(config.messages ?? [], now);
    for (const r of repairs)
      this.repairs.push(`${r.kind}${r.toolCallId ? ` (${r.toolCallId})` : ''} at ${r.index}`);
    const runId = config.runId ?? globalThis.crypto.randomUUID();
    this.run = new LoopRunContext(config, scheduler, prior, runId);
    this.firstNewMessage = prior.length;
    this.maxSteps = Math.max(1, config.maxSteps ?? 10);
    this.prompt = normalizePrompt(config.prompt, now);
    if (this.prompt.length === 0 && prior.length === 0) {
      throw new AgentConfigError(
        'runAgent needs a prompt or prior messages: pass { prompt: "…" } or { messages }.',
      );
    }
  }

  start(): void {
    const pipeline = this.config.pipeline ?? defaultPipeline(this.config);
    this.pipelineSub = pipeline(this.input.asObservable()).subscribe(new PipelineOutput(this));
    this.detachSources = attachConfigSources(this.run);
    this.feed({ type: 'run-context', run: this.run });
    this.feed({ type: 'agent-start', runId: this.run.runId });
    if (this.repairs.length > 0) {
      this.feed({ type: 'warning', message: `Repaired the prior transcript: ${this.repairs.join(', ')}.` });
    }
    const signal = this.config.signal;
    if (signal) {
      if (signal.aborted) return this.abort();
      this.onAbort = () => this.abort();
      signal.addEventListener('abort', this.onAbort, { once: true });
    }
    this.startTurn(1, this.prompt);
  }

  teardown(): void {
    if (this.ended) return;
    this.ended = true;
    this.cleanup('unsubscribed');
  }

  // Made only when the config has a signal to listen to.
  private onAbort?: () => void;

  private feed(item: LoopEvent): void {
    this.feedQueue.push(item);
    if (this.draining) return;
    this.draining = true;
    try {
      // A trampoline: a synchronous model and tools finish a turn inside `input.next`; the
      // next turn is queued here instead of recursing, so 10,000 steps keep a flat stack.
      while (this.feedQueue.length > 0 && !this.ended) this.input.next(this.feedQueue.shift() as LoopEvent);
    } finally {
      this.draining = false;
    }
  }

  /** @internal */
  onOutput(item: LoopEvent): void {
    if (this.ended) return;
    if (item.type === 'turn-context') return this.onTurnDone(item.turn);
    if (item.type === 'run-context') return;
    this.track(item);
    this.subscriber.next(item);
  }

  private track(event: AgentEvent): void {
    if (event.type === 'message-end') this.run.append(event.message);
    this.watch.see(event);
  }

  private emit(event: AgentEvent): void {
    this.track(event);
    this.subscriber.next(event);
  }

  private startTurn(step: number, messages: readonly AgentMessage[]): void {
    const turn: TurnContext = { run: this.run, step, toolResults: [], next: [] };
    this.feed({ type: 'turn-start', step });
    const now = this.run.scheduler.now();
    const steering = this.run.steering.flatMap((s) => s.queue.drain()).map((m) => toUserMessage(m, now));
    for (const message of [...messages, ...steering]) {
      this.feed({ type: 'message-start', message });
      this.feed({ type: 'message-end', message });
    }
    this.feed({ type: 'turn-context', turn });
  }

  private onTurnDone(turn: TurnContext): void {
    if (!turn.assistant) {
      return this.fail(
        new AgentConfigError(
          'A turn left the pipeline without a model message: put llmStep() in the pipeline.',
        ),
      );
    }
    const open = this.watch.openCalls;
    if (open) {
      // The pipeline has no executeTools: close the calls so the transcript stays valid.
      const now = this.run.scheduler.now();
      for (const [id, { name }] of [...open]) {
        const message = toolErrorResult(
          { id, name },
          'Tool call was not executed: the pipeline has no executeTools().',
          now,
        );
        this.emit({ type: 'message-start', message });
        this.emit({ type: 'message-end', message });
        turn.toolResults.push(message);
      }
    }
    const step = stepResultOf(turn);
    this.run.steps.push(step);
    this.emit({ type: 'turn-end', step });
    this.decide(turn);
  }

  private decide(turn: TurnContext): void {
    const step = this.run.steps[this.run.steps.length - 1];
    const wantsMore =
      (step?.toolCalls.length ?? 0) > 0 ||
      turn.next.length > 0 ||
      this.run.steering.some((s) => s.queue.size > 0);
    const followUpsWaiting = this.run.followUps.some((q) => q.size > 0);
    // A natural finish (no calls, nothing queued) is `completed` even when a predicate also said stop.
    if (turn.stop && (wantsMore || followUpsWaiting)) return this.end(turn.stop);
    if (turn.stop) return this.end(stopSignal('completed', 'The model finished without calling a tool.'));
    if (wantsMore) return this.continueWith(turn, []);
    // The model would stop by itself: follow-ups, then stop guards.
    if (followUpsWaiting) {
      if (this.atStepLimit()) return this.end(this.stepsLimitSignal());
      const now = this.run.scheduler.now();
      const followUps = this.run.followUps.flatMap((q) => q.drain()).map((m) => toUserMessage(m, now));
      return this.continueWith(turn, followUps);
    }
    for (const guard of this.run.stopGuards) {
      let decision;
      try {
        decision = guard({
          step: step as NonNullable<typeof step>,
          steps: this.run.steps,
          messages: this.run.messages,
        });
      } catch (error) {
        this.emit({
          type: 'warning',
          message: `A stop guard threw and was ignored: ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
      if (decision?.escalate) return this.fail(new StopGuardEscalationError(decision.reason));
      if (decision?.inject) {
        turn.next.push(toUserMessage(decision.inject, this.run.scheduler.now()));
        return this.continueWith(turn, []);
      }
    }
    this.end(stopSignal('completed', 'The model finished without calling a tool.'));
  }

  private atStepLimit(): boolean {
    return this.run.steps.length >= this.maxSteps;
  }

  private stepsLimitSignal(): StopSignal {
    return stopSignal('steps-limit', `Step limit reached: ${this.run.steps.length}/${this.maxSteps}`, {
      context: { steps: this.run.steps.length, maxSteps: this.maxSteps },
      source: 'maxSteps',
    });
  }

  private continueWith(turn: TurnContext, extra: AgentMessage[]): void {
    if (this.atStepLimit()) return this.end(this.stepsLimitSignal());
    this.startTurn(turn.step + 1, [...turn.next, ...extra]);
  }

  private end(signal: StopSignal): void {
    if (this.ended) return;
    this.ended = true;
    this.subscriber.next({
      type: 'agent-end',
      reason: signal.reason,
      signal,
      messages: this.run.messages.slice(this.firstNewMessage),
      usage: this.run.usage,
      steps: this.run.steps.length,
    });
    this.cleanup('ended');
    this.subscriber.complete();
  }

  /** @internal */
  fail(error: unknown): void {
    if (this.ended) return;
    this.ended = true;
    this.cleanup('failed');
    this.subscriber.error(error);
  }

  /** An abort: stop everything in flight, close the transcript, mark it, end cleanly. */
  private abort(): void {
    if (this.ended) return;
    this.pipelineSub?.unsubscribe();
    this.run.abort('aborted');
    const { provider, modelId } = this.run.model;
    for (const event of this.watch.closingEvents(provider, modelId, this.run.scheduler.now()))
      this.emit(event);
    this.end(stopSignal('user-requested', 'The run was aborted.', { source: 'signal' }));
  }

  private cleanup(reason: string): void {
    if (this.onAbort) this.config.signal?.removeEventListener('abort', this.onAbort);
    if (reason !== 'ended') this.run.abort(reason);
    this.pipelineSub?.unsubscribe();
    this.detachSources?.();
    this.feedQueue.length = 0;
  }
}

function normalizePrompt(prompt: RunAgentConfig['prompt'], now: number): AgentMessage[] {
  if (prompt === undefined) return [];
  if (typeof prompt === 'string') return [toUserMessage(prompt, now)];
  if (Array.isArray(prompt)) return prompt;
  return [prompt];
}
