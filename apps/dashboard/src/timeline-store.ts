import { asyncScheduler, type SchedulerLike, type Subscription } from 'rxjs';
import type { TokenPrices } from '@rxagent/core';
import type { RunRegistry } from './run-registry.js';
import { RunTimeline } from './run-timeline.js';
import type { TimelineDetail, TimelineView } from './timeline-types.js';

/**
 * The timelines of a registry's runs: one `RunTimeline` per run, fed by the run's agent
 * events from the moment the run is registered, kept after the run ends (until it is
 * removed). A run that ends without `agent-end` (aborted silently, failed) has its open rows
 * closed when its card turns terminal.
 *
 * @example
 * const timelines = new TimelineStore(registry);
 * const view = timelines.view('run-1'); // rows, totals
 */
export class TimelineStore {
  private readonly timelines = new Map<string, { timeline: RunTimeline; subscription: Subscription }>();
  private readonly subscription: Subscription;
  private readonly scheduler: SchedulerLike;

  constructor(
    private readonly registry: RunRegistry,
    options: { scheduler?: SchedulerLike; prices?: TokenPrices; pricedAs?: string } = {},
  ) {
    this.scheduler = options.scheduler ?? asyncScheduler;
    // The registry pushes a run's first snapshot as it registers it, before any event.
    this.subscription = registry.updates$.subscribe((update) => {
      if (update.type === 'removed') return this.drop(update.id);
      if (update.type !== 'run') return;
      const { run } = update;
      const known = this.timelines.get(run.id);
      if (!known) {
        const entry = registry.get(run.id);
        if (!entry) return;
        const timeline = new RunTimeline({
          ...(options.prices ? { prices: options.prices } : {}),
          ...(options.pricedAs ? { pricedAs: options.pricedAs } : {}),
        });
        const subscription = entry.agent.events$.subscribe({
          next: (event) => timeline.see(event, this.scheduler.now()),
          // A watched run's stream may end with its error; the card turning terminal closes the rows.
          error: () => undefined,
        });
        this.timelines.set(run.id, { timeline, subscription });
      } else if (run.terminal) {
        known.timeline.stop(this.scheduler.now(), run.error ?? run.phase);
      }
    });
  }

  /** The run's timeline now, or undefined for an unknown run. */
  view(runId: string): TimelineView | undefined {
    return this.timelines.get(runId)?.timeline.view(this.scheduler.now());
  }

  /** One row in full (messages, arguments, result), or undefined. */
  detail(runId: string, rowId: string): TimelineDetail | undefined {
    return this.timelines.get(runId)?.timeline.detail(rowId);
  }

  /** Stops following every run. */
  close(): void {
    this.subscription.unsubscribe();
    for (const id of [...this.timelines.keys()]) this.drop(id);
  }

  private drop(id: string): void {
    this.timelines.get(id)?.subscription.unsubscribe();
    this.timelines.delete(id);
  }
}
