import { asyncScheduler, Subject, type Observable, type SchedulerLike, type Subscription } from 'rxjs';
import type { AgentEvent, AgentState, StateObservable } from '@rxagent/core';
import type { ElicitationReply } from '@rxagent/core/elicitation';
import type { ForkView, RunOrigin } from './fork-view.js';
import { describeEvent, type RunEventView } from './run-event-view.js';
import { updateFrames } from './update-frames.js';
import { toRunSnapshot, type RunSnapshot } from './run-snapshot.js';
import { SubrunTracker } from './subrun-view.js';
import { watchedRunAgent, type RunControls } from './watched-run.js';

/**
 * What the dashboard needs of an agent: an `Agent` fits, and so does a run watched from
 * elsewhere (`durableRunAgent(runs, id)`), whose decisions are asynchronous. `approve` /
 * `reject` answer `false` when that call is not waiting; a rejected promise means the decision
 * did not reach the run.
 *
 * @example
 * const agent: DashboardAgent = new Agent({ model });
 */
export interface DashboardAgent {
  readonly state$: StateObservable<AgentState>;
  readonly events$: Observable<AgentEvent>;
  approve(toolCallId: string): boolean | Promise<boolean>;
  reject(toolCallId: string, reason?: string): boolean | Promise<boolean>;
  /** Answers a tool's elicitation (an `Agent` has it; without it, the page's forms answer 409). */
  respond?(elicitationId: string, reply: ElicitationReply): boolean | Promise<boolean>;
  abort(): void | Promise<void>;
}

/**
 * What the registry pushes: a run's new snapshot, a line of its event log, or its removal.
 *
 * @example
 * registry.updates$.subscribe((u) => u.type === 'run' && console.log(u.run.phase));
 */
export type DashboardUpdate =
  | { type: 'run'; run: RunSnapshot }
  | { type: 'event'; event: RunEventView }
  | { type: 'removed'; id: string };

/**
 * One registered run.
 *
 * @example
 * registry.get('run-1')?.agent.abort();
 */
export interface RunEntry {
  id: string;
  label: string;
  agent: DashboardAgent;
  /** True when the dashboard started the agent (it aborts it on close). */
  owned: boolean;
  /** The run's lineage, when it is a fork. */
  fork?: ForkView;
}

/**
 * Options of a `RunRegistry`.
 *
 * @example
 * new RunRegistry({ scheduler: testScheduler, throttleMs: 50, eventHistory: 12 });
 */
export interface RunRegistryOptions {
  /** Clock of the throttle and of event times (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** State pushes of one run are coalesced within this window (default 50 ms). */
  throttleMs?: number;
  /** Lines of event log kept per run for pages that connect later (default 12). */
  eventHistory?: number;
}

interface Slot extends RunEntry {
  origin: RunOrigin;
  subscriptions: Subscription[];
  latest: AgentState;
  sent?: {
    phase: AgentState['phase'];
    approvals: AgentState['pendingApprovals'];
    elicitations: AgentState['pendingElicitations'];
  };
  timer?: Subscription;
  events: RunEventView[];
  subruns: SubrunTracker;
}

/**
 * The runs shown by the dashboard, by id, with their subscriptions. State changes become
 * `run` updates coalesced per run within `throttleMs` (the latest snapshot is sent), except
 * that a phase change or a change of the pending approvals is pushed at once, so none is
 * ever lost; events become one-line `event` updates.
 *
 * @example
 * const registry = new RunRegistry({ throttleMs: 50 });
 * registry.updates$.subscribe((u) => channel.send(u.type, u));
 * const id = registry.add(agent, 'research #1');
 * await agent.prompt('Summarize the docs');
 */
export class RunRegistry {
  private readonly slots = new Map<string, Slot>();
  private readonly updates = new Subject<DashboardUpdate>();
  private readonly scheduler: SchedulerLike;
  private readonly throttleMs: number;
  private readonly eventHistory: number;
  private nextId = 1;

  /** Every update of every run (hot). */
  readonly updates$: Observable<DashboardUpdate> = this.updates.asObservable();

  /** The same updates as SSE frames, each serialized once for every page (`updateFrames`). */
  readonly frames$: Observable<Uint8Array> = updateFrames(this.updates$);

  constructor(options: RunRegistryOptions = {}) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.throttleMs = options.throttleMs ?? 50;
    this.eventHistory = options.eventHistory ?? 12;
  }

  /** Registers an agent under a new id (`run-1`, `run-2`…) and pushes its first snapshot. */
  add(agent: DashboardAgent, label: string, options: { owned?: boolean; origin?: RunOrigin } = {}): string {
    const id = `run-${this.nextId++}`;
    const origin = options.origin ?? {};
    const slot: Slot = {
      id,
      label,
      agent,
      owned: options.owned ?? false,
      origin,
      ...(origin.fork ? { fork: origin.fork } : {}),
      subscriptions: [],
      latest: agent.state$.value,
      events: [],
      subruns: new SubrunTracker(),
    };
    this.slots.set(id, slot);
    slot.subscriptions.push(
      agent.state$.subscribe((state) => this.onState(slot, state)),
      agent.events$.subscribe({
        next: (event) => {
          // The state was folded before this event reached us: push the nested views with it.
          if (slot.subruns.see(event)) this.onState(slot, slot.latest);
          const text = describeEvent(event);
          if (text === undefined) return;
          const view: RunEventView = { runId: id, type: event.type, text, at: this.scheduler.now() };
          slot.events.push(view);
          if (slot.events.length > this.eventHistory) slot.events.shift();
          this.updates.next({ type: 'event', event: view });
        },
        // A watched run (e.g. a durable one) may end its stream with the run's error: the state
        // shows it (phase `error`), so there is nothing more to do here.
        error: () => undefined,
      }),
    );
    return id;
  }

  /**
   * Registers a run that executes elsewhere, from its event stream (e.g. `runs.watchRun(id)`
   * of `@rxagent/durable`, or events relayed from another process): its state is folded here
   * with `withState`. `controls` say how its buttons reach it; without them its approvals
   * cannot be decided from the page (409) and it cannot be aborted from it.
   */
  watch(events$: Observable<AgentEvent>, label: string, controls: RunControls = {}): string {
    return this.add(watchedRunAgent(events$, controls), label);
  }

  /** The run with this id. */
  get(id: string): RunEntry | undefined {
    const slot = this.slots.get(id);
    return (
      slot && {
        id: slot.id,
        label: slot.label,
        agent: slot.agent,
        owned: slot.owned,
        ...(slot.fork ? { fork: slot.fork } : {}),
      }
    );
  }

  /** Every run, in the order they were added. */
  entries(): RunEntry[] {
    return [...this.slots.keys()].map((id) => this.get(id) as RunEntry);
  }

  /** The current snapshot of a run (computed now, not the last one pushed). */
  snapshot(id: string): RunSnapshot | undefined {
    const slot = this.slots.get(id);
    return slot && this.view(slot, slot.agent.state$.value);
  }

  /** The current snapshots of every run. */
  snapshots(): RunSnapshot[] {
    return [...this.slots.keys()].map((id) => this.snapshot(id) as RunSnapshot);
  }

  /** The recent event log of every run, oldest first. */
  recentEvents(): RunEventView[] {
    return [...this.slots.values()].flatMap((slot) => slot.events);
  }

  /** Stops following a run (the agent is left as it is) and tells the pages. */
  remove(id: string): boolean {
    const slot = this.slots.get(id);
    if (!slot) return false;
    this.release(slot);
    this.slots.delete(id);
    this.updates.next({ type: 'removed', id });
    return true;
  }

  /** Stops following every run and completes `updates$`. */
  close(): void {
    for (const slot of this.slots.values()) this.release(slot);
    this.slots.clear();
    this.updates.complete();
  }

  private onState(slot: Slot, state: AgentState): void {
    slot.latest = state;
    const sent = slot.sent;
    if (
      !sent ||
      sent.phase !== state.phase ||
      sent.approvals !== state.pendingApprovals ||
      sent.elicitations !== state.pendingElicitations
    ) {
      this.flush(slot);
    } else if (!slot.timer) {
      slot.timer = this.scheduler.schedule(() => {
        slot.timer = undefined;
        this.flush(slot);
      }, this.throttleMs);
    }
  }

  private flush(slot: Slot): void {
    slot.timer?.unsubscribe();
    slot.timer = undefined;
    const state = slot.latest;
    slot.sent = {
      phase: state.phase,
      approvals: state.pendingApprovals,
      elicitations: state.pendingElicitations,
    };
    this.updates.next({ type: 'run', run: this.view(slot, state) });
  }

  /** The page's view of a run: its state, sub-runs nested, and where it came from. */
  private view(slot: Slot, state: AgentState): RunSnapshot {
    const run = slot.subruns.nest(toRunSnapshot(slot.id, slot.label, state), state.subruns);
    if (slot.origin.forkable) run.forkable = true;
    if (slot.origin.fork) run.fork = slot.origin.fork;
    return run;
  }

  private release(slot: Slot): void {
    slot.timer?.unsubscribe();
    slot.timer = undefined;
    for (const subscription of slot.subscriptions) subscription.unsubscribe();
  }
}
