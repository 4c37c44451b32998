import type { AnyTool, Tool, ToolContext } from '@rxagent/core';

/**
 * How a tool behaves when a worker crashes while it runs. `idempotent`: the call is run again
 * on the worker that takes the run over. `at-most-once` (the default for every tool): a call
 * that may have started is never run again; the model reads an error result saying it was
 * interrupted and may or may not have taken effect.
 *
 * @example
 * const durability: ToolDurability = 'idempotent';
 */
export type ToolDurability = 'idempotent' | 'at-most-once';

/**
 * A tool with its declared durability, as `startWorker` registers it.
 *
 * @example
 * const entry: DurableTool = durableTool(readFile, { durability: 'idempotent' });
 */
export interface DurableTool {
  readonly tool: AnyTool;
  readonly durability: ToolDurability;
}

/**
 * Declares a tool's durability for durable runs (see `ToolDurability`). Tools registered
 * without it are at-most-once.
 *
 * @example
 * startWorker({ databaseUrl, models: { main: model }, tools: [durableTool(search, { durability: 'idempotent' }), sendEmail] });
 */
export function durableTool<A, R>(tool: Tool<A, R>, options: { durability: ToolDurability }): DurableTool {
  return { tool, durability: options.durability };
}

/**
 * A stable key for one tool call (run id + call id): the same after a crash and on the worker
 * that takes the run over. Pass it to the outside system (a payment API's `Idempotency-Key`) to
 * make an at-most-once tool safe to declare idempotent.
 *
 * @example
 * execute: async ({ amount }, ctx) => payments.charge({ amount, idempotencyKey: idempotencyKey(ctx) }),
 */
export function idempotencyKey(ctx: Pick<ToolContext, 'runId' | 'toolCallId'>): string {
  return `${ctx.runId}:${ctx.toolCallId}`;
}

/** A registered tool entry: a plain tool is at-most-once. */
export function toDurableTool(entry: AnyTool | DurableTool): DurableTool {
  return 'tool' in entry && 'durability' in entry ? entry : { tool: entry, durability: 'at-most-once' };
}
