import type { ContextUsage } from './context-usage.js';

/**
 * How full the context is before a model call (emitted by `compactContext` when the manager
 * reports it); the state keeps the last one in `contextUsage`.
 *
 * @example
 * if (event.type === 'context-usage') gauge.set(event.usage.percent);
 */
export interface ContextUsageEvent {
  type: 'context-usage';
  usage: ContextUsage;
}

/**
 * A summary call of the context manager starts ("compacting…"); a `compaction` event ends it.
 *
 * @example
 * const e: SummaryStartEvent = { type: 'summary-start', model: 'gpt-4o-mini', messages: 120, incremental: false };
 */
export interface SummaryStartEvent {
  type: 'summary-start';
  /** The summary model's id. */
  model: string;
  /** How many messages it summarizes. */
  messages: number;
  /** True when it updates an earlier checkpoint. */
  incremental: boolean;
}

/**
 * A streamed piece of the summary being written.
 *
 * @example
 * if (event.type === 'summary-update') process.stdout.write(event.delta);
 */
export interface SummaryUpdateEvent {
  type: 'summary-update';
  delta: string;
}
