import { Observable, type Subscriber, type Subscription } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolGuardEnv } from '../guardrails/guard-tool-call.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { ToolCallPart, Usage } from '../messages/types.js';
import type { ModelEvent } from '../model/model-event.js';
import { addSpent } from '../state/spent-usage.js';
import type { CallItem } from '../tools/call-settled.js';
import { promiseToolWarning } from '../tools/virtual-time-warning.js';
import type { EagerHandle } from '../turn/eager-handle.js';
import type { LoopItem } from '../turn/loop-item.js';
import type { Turn } from '../turn/turn.js';
import { PROMISE_WARNED } from './finish-batch.js';
import { runToolCall } from './run-tool-call.js';
import { toolCallEnv } from './tool-call-env.js';
import { toolGuardEnv } from './tool-guard-env.js';

/**
 * Where a turn says that its model call must not start eager calls (an input guardrail races
 * the call: nothing runs before the checks passed).
 */
export const EAGER_HELD = 'llmStep.eagerHeld';

/** Something a call reported: an item of its stream, or an event through `ctx.progress`. */
type Delivery = { kind: 'item'; item: CallItem } | { kind: 'progress'; event: AgentEvent };

/** One call started early. */
interface Entry {
  readonly call: ToolCallPart;
  subscription?: Subscription;
  /** What came while nobody could take it (the outcome; events after the model's stream closed). */
  readonly held: Delivery[];
  /** Completed (`true`) or failed. */
  ended?: true | { error: unknown };
  /** `executeTools` took it over. */
  claimed?: boolean;
  /** Aborted (dropped, abandoned, or left by `executeTools` before its outcome). */
  aborted?: boolean;
  /** Where it reports once `executeTools` subscribed. */
  adopted?: { target: Subscriber<CallItem>; progress(event: AgentEvent): void };
}

/**
 * True when the turn offers a tool that declares `eager: true`.
 *
 * @example
 * const eager = hasEagerTools(turn) ? new EagerCalls(turn) : undefined;
 */
export function hasEagerTools(turn: Turn): boolean {
  for (const tool of turn.tools.values()) if (tool.eager === true) return true;
  return false;
}

/**
 * The eager calls of one model call (across its attempts). While an attempt streams, a call to
 * an eager tool starts at its `toolcall-end` — when every call before it in the message started
 * early too (so calls never overtake one that must wait), fewer than the run's `toolConcurrency`
 * run, the breaker allows the tool, and its id is new — with its `tool-start` and progress on the
 * attempt's stream; its outcome is held. A failed attempt drops its calls (aborted, their results
 * never used). The message's turn carries the rest to `executeTools`, which adopts each call once
 * (`adopt`); the run's abort signal, or the end of the pass, aborts what nobody adopted. Calls run
 * with the run's tool settings (gate, middlewares, guardrails, timeout), as `executeTools()` does.
 *
 * @example
 * const eager = new EagerCalls(turn);
 * eager.open(subscriber); // an attempt starts
 * eager.see(modelEvent); // each event of its stream
 * if (eager.release()) next = next.withEagerCalls(eager); // its message is complete
 */
export class EagerCalls implements EagerHandle {
  readonly guardrails: readonly ToolGuardrail[];
  spent?: Usage;
  promiseWarned: boolean;
  private readonly guard?: ToolGuardEnv;
  private readonly entries = new Map<string, Entry>();
  private out?: Subscriber<LoopItem>;
  private inOrder = true;
  private running = 0;
  private listening = false;

  constructor(private readonly turn: Turn) {
    this.guard = toolGuardEnv(turn);
    this.guardrails = this.guard?.guardrails ?? [];
    this.promiseWarned = turn.operatorState<boolean>(PROMISE_WARNED) === true;
  }

  /** An attempt starts streaming to `out`. */
  open(out: Subscriber<LoopItem>): void {
    this.out = out;
    this.inOrder = true;
  }

  /** An event of the attempt streaming now (after the message builder took it). */
  see(event: ModelEvent): void {
    if (event.type === 'toolcall-start') {
      if (this.turn.tools.get(event.name)?.eager !== true) this.inOrder = false;
    } else if (event.type === 'toolcall-end') {
      if (this.inOrder && this.startable(event.call)) this.start(event.call);
      else this.inOrder = false;
    }
  }

  /** The attempt failed or was cut: its calls are aborted and forgotten (their spending kept). */
  drop(): void {
    this.out = undefined;
    for (const entry of this.entries.values()) this.abort(entry);
    this.entries.clear();
  }

  /** The attempt's message is complete: true when calls started (the turn carries them on). */
  release(): boolean {
    this.out = undefined;
    if (this.entries.size === 0) return false;
    if (this.running > 0 && !this.listening) {
      const signal = this.turn.run.signal;
      if (signal.aborted) this.abandon();
      else {
        this.listening = true;
        signal.addEventListener('abort', this.onAbort, { once: true });
      }
    }
    return true;
  }

  adopt(call: ToolCallPart, progress: (event: AgentEvent) => void): Observable<CallItem> | undefined {
    const entry = this.entries.get(call.id);
    if (!entry || entry.claimed || entry.aborted) return undefined;
    if (entry.call.name !== call.name || JSON.stringify(entry.call.args) !== JSON.stringify(call.args)) {
      this.abort(entry); // the message's call is not the one that started: it runs again
      this.entries.delete(call.id);
      return undefined;
    }
    entry.claimed = true;
    return new Observable<CallItem>((subscriber) => {
      entry.adopted = { target: subscriber, progress };
      for (const d of entry.held.splice(0)) {
        if (subscriber.closed) return undefined;
        subscriber.next(d.kind === 'item' ? d.item : d.event);
      }
      const ended = entry.ended;
      if (ended === true) subscriber.complete();
      else if (ended) subscriber.error(ended.error);
      return () => {
        entry.adopted = undefined;
        this.abort(entry);
      };
    });
  }

  /** Aborts the calls `executeTools` did not adopt. */
  dropUnadopted(): void {
    for (const entry of this.entries.values()) if (!entry.claimed) this.abort(entry);
  }

  abandon(): void {
    for (const entry of this.entries.values()) this.abort(entry);
    this.stopListening();
  }

  private readonly onAbort = (): void => {
    this.listening = false;
    this.abandon();
  };

  private stopListening(): void {
    if (!this.listening) return;
    this.listening = false;
    this.turn.run.signal.removeEventListener('abort', this.onAbort);
  }

  private startable(call: ToolCallPart | undefined): call is ToolCallPart {
    if (!call || call.argsError !== undefined) return false;
    if (typeof call.id !== 'string' || call.id === '' || this.entries.has(call.id)) return false;
    if (this.turn.tools.get(call.name)?.eager !== true) return false;
    const settings = this.turn.run.settings.tools;
    if (this.running >= settings.concurrency) return false;
    const errors = this.turn.toolErrors.get(call.name) ?? 0;
    if (settings.maxToolErrors > 0 && errors >= settings.maxToolErrors) return false;
    return this.turn.operatorState(EAGER_HELD) !== true;
  }

  private start(call: ToolCallPart): void {
    const out = this.out;
    if (!out || out.closed) return;
    const entry: Entry = { call, held: [] };
    this.entries.set(call.id, entry);
    this.running++;
    out.next({ type: 'tool-start', toolCallId: call.id, toolName: call.name, args: call.args });
    // The subscriber left from inside its `next` (the attempt was dropped): the tool never starts.
    if (out.closed || this.entries.get(call.id) !== entry) return;
    const env = toolCallEnv(this.turn, call, {}, this.guard, {
      progress: (event) => this.deliver(entry, { kind: 'progress', event }),
      onPromise: (toolName) => this.onPromise(entry, toolName),
    });
    const subscription = runToolCall(env).subscribe({
      next: (item) => this.deliver(entry, { kind: 'item', item }),
      error: (error: unknown) => this.end(entry, { error }),
      complete: () => this.end(entry, true),
    });
    if (entry.aborted)
      subscription.unsubscribe(); // dropped while it started
    else if (!entry.ended) entry.subscription = subscription;
  }

  private deliver(entry: Entry, d: Delivery): void {
    if (entry.ended || entry.aborted) return;
    const adopted = entry.adopted;
    if (adopted) {
      if (d.kind === 'item') adopted.target.next(d.item);
      else adopted.progress(d.event);
      return;
    }
    // Before `executeTools` takes the call over, its sub-runs' spending is counted here.
    if (d.kind === 'progress') this.spent = addSpent(this.spent, d.event);
    const event = d.kind === 'progress' ? d.event : d.item.type === 'call-settled' ? undefined : d.item;
    const out = this.out;
    if (event && out && !out.closed) out.next(event);
    else entry.held.push(d);
  }

  private end(entry: Entry, how: true | { error: unknown }): void {
    if (entry.ended || entry.aborted) return;
    entry.ended = how;
    this.running--;
    const target = entry.adopted?.target;
    if (!target) {
      if (this.running === 0) this.stopListening();
      return;
    }
    if (how === true) target.complete();
    else target.error(how.error);
  }

  private abort(entry: Entry): void {
    if (entry.ended || entry.aborted) return;
    entry.aborted = true;
    this.running--;
    entry.subscription?.unsubscribe();
    if (this.running === 0) this.stopListening();
  }

  private onPromise(entry: Entry, toolName: string): void {
    if (this.promiseWarned) return;
    const warning = promiseToolWarning(this.turn.run.scheduler, toolName);
    if (!warning) return;
    this.promiseWarned = true;
    this.deliver(entry, { kind: 'progress', event: warning });
  }
}
