import type { Usage } from '@rxagent/core';
import { modelPrice, usageCost, type ModelPrice } from '@rxagent/core/models';
import type { TimelineEstimate, TimelineRow } from './timeline-types.js';

/**
 * The model whose prices an unpriced run's estimate uses, and those prices (by default
 * `gpt-4o-mini`, from the built-in price table).
 *
 * @example
 * new RunTimeline({ standIn: { model: 'claude-haiku-4-5', price: { inputPerMillion: 1, outputPerMillion: 5 } } });
 */
export interface StandInPrice {
  model: string;
  price: ModelPrice;
}

/**
 * `gpt-4o-mini`'s list prices (`modelPrice('openai', 'gpt-4o-mini')`): what the timeline of a
 * run that priced no call estimates its cost at, and says so.
 *
 * @example
 * estimateCost(state.usage, rows, defaultStandIn()); // { costUsd: 0.000642, pricedAs: 'gpt-4o-mini' }
 */
export function defaultStandIn(): StandInPrice | undefined {
  const price = modelPrice('openai', 'gpt-4o-mini');
  return price ? { model: 'gpt-4o-mini', price } : undefined;
}

/**
 * An estimate of what a run would cost at a stand-in model's prices — only for a run that
 * spent tokens and priced none of its calls (a scripted model has no price). A run that priced
 * some calls has no estimate: its cost is unknown, and a guess of the rest would pass for it.
 * Never the run's cost: the page shows it beside `cost unknown`, labelled as an estimate.
 *
 * @param usage The run's usage (the state fold's).
 * @param rows The timeline's rows, each with what its own call spent.
 *
 * @example
 * estimateCost(state.usage, view.rows, defaultStandIn()); // { costUsd: 0.000642, pricedAs: 'gpt-4o-mini' }
 */
export function estimateCost(
  usage: Usage,
  rows: readonly TimelineRow[],
  standIn: StandInPrice | undefined,
): TimelineEstimate | undefined {
  if (!standIn || usage.costUsd !== undefined || usage.totalTokens === 0) return undefined;
  if (rows.some((row) => row.tokens?.costUsd !== undefined)) return undefined;
  // At its base rates: a long-context tier is per request, and this is the run's sum.
  const { longContext: _perRequest, ...base } = standIn.price;
  return { costUsd: usageCost(usage, base), pricedAs: standIn.model };
}
