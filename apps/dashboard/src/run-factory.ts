import type { SchedulerLike } from 'rxjs';
import type { AnyTool, ChatModel } from '@rxagent/core';
import type { ContextManager } from '@rxagent/core/context';
import type { PriceTable } from '@rxagent/core/models';

/**
 * What a new run is asked for (from `startRun` or `POST /runs`).
 *
 * @example
 * const recipe = factory({ index: 0, scenario: 'chat', scheduler: asyncScheduler });
 */
export interface RunRequest {
  /** 0-based count of the runs this dashboard started before this one. */
  index: number;
  /** The prompt typed in the page, if any (the factory picks one otherwise). */
  prompt?: string;
  /** A scenario name from the factory's `scenarios`, if one was picked. */
  scenario?: string;
  /** The dashboard's scheduler: model latency and tool durations must run on it. */
  scheduler: SchedulerLike;
}

/**
 * How to build the `Agent` of a new run.
 *
 * @example
 * const recipe: RunRecipe = { model: scriptedModel([textTurn('Hi!')]), prompt: 'Say hi', label: 'hello #1' };
 */
export interface RunRecipe {
  model: ChatModel;
  /** The prompt the run starts with. */
  prompt: string;
  tools?: readonly AnyTool[];
  system?: string;
  /** The card's title (default: the scenario or model id, and the run number). */
  label?: string;
  maxSteps?: number;
  /** Manages the run's context (e.g. `contextEngine(…)` of `@rxagent/context`); its card shows a gauge. */
  contextManager?: ContextManager;
  /**
   * Prices of models the built-in table lacks (the run fills `usage.costUsd` from them): every
   * cost on the card and timeline is the run's own, never a guess of the dashboard's.
   */
  prices?: PriceTable;
}

/**
 * Builds the runs the dashboard starts itself. A function, with optional `scenarios` (offered
 * in the page's "new run" form) and `source` (shown in the header, e.g. `scripted` or
 * `openai gpt-4o-mini`).
 *
 * @example
 * const factory: ModelFactory = Object.assign(
 *   (request: RunRequest): RunRecipe => ({ model: scriptedModel([textTurn('Hi!')]), prompt: request.prompt ?? 'Say hi' }),
 *   { scenarios: ['hello'], source: 'scripted' },
 * );
 * await startDashboard({ modelFactory: factory });
 */
export interface ModelFactory {
  (request: RunRequest): RunRecipe;
  readonly scenarios?: readonly string[];
  readonly source?: string;
}
