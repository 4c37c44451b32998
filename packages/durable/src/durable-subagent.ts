import { jsonSchema, tool, type ToolContext } from '@rxagent/core';
import { lastValueFrom, tap } from 'rxjs';
import { toResult } from '@rxagent/core/streams';
import { durableRuns, type DurableRunsOptions } from './durable-runs.js';
import type { DurableTool } from './durable-tool.js';
import type { DurableRunSpec } from './run-spec.js';

/**
 * Options of `durableSubagent`.
 *
 * @example
 * const options: DurableSubagentOptions = {
 *   name: 'researcher', description: 'Researches a question', databaseUrl,
 *   spec: { model: 'main', tools: ['search'], system: 'You research.' },
 * };
 */
export interface DurableSubagentOptions {
  /** The tool's name, and the sub-agent's in `subrun` events. */
  name: string;
  description: string;
  /** The child run's spec (names registered in the workers); the task is its prompt. */
  spec: Omit<DurableRunSpec, 'runId' | 'prompt' | 'messages'>;
  /** The workers' database. */
  databaseUrl: string;
  /** Options of the client the tool starts and watches the child with. */
  client?: Omit<DurableRunsOptions, 'databaseUrl'>;
}

/**
 * The id of the durable child run a call starts: the parent's run id and the call's run-unique id.
 *
 * @example
 * await runs.approve(childRunId({ runId: 'order-1042', toolCallId: 'call_2' }), 'call_1'); // a call waiting in the child
 */
export function childRunId(ctx: Pick<ToolContext, 'runId' | 'toolCallId'>): string {
  return `${ctx.runId}/${ctx.toolCallId}`;
}

/**
 * A sub-agent as a durable child run: a tool (idempotent) that starts a durable run with its
 * own id, `<parent run id>/<call id>`, on any worker, puts the child's events on the parent's
 * stream as they happen (`subrun` events, so its spending counts in the parent's usage and
 * budget at once), and returns the child's answer. The child survives its worker's death like
 * any durable run; when the parent's worker dies, the parent's replay runs the call again,
 * which finds the same child (starting it again is a no-op) and waits for its end. Cancelling
 * the parent (`runs.cancel`) cancels its children. Register it in the workers like any tool.
 *
 * @example
 * startWorker({ databaseUrl, models: { main: model }, tools: [search, durableSubagent({
 *   name: 'researcher', description: 'Researches a question', databaseUrl, spec: { model: 'main', tools: ['search'] },
 * })] });
 */
export function durableSubagent(options: DurableSubagentOptions): DurableTool {
  const researcher = tool({
    name: options.name,
    description: options.description,
    parameters: jsonSchema<{ task: string }>({
      type: 'object',
      properties: { task: { type: 'string', description: 'What the sub-agent should do' } },
      required: ['task'],
    }),
    execute: async ({ task }, ctx) => {
      const runs = await durableRuns({ ...options.client, databaseUrl: options.databaseUrl });
      try {
        const runId = childRunId(ctx);
        await runs.startRun({ ...options.spec, runId, prompt: task });
        const result = await lastValueFrom(
          runs.watchRun(runId).pipe(
            tap((event) => ctx.emitSubrun?.({ agent: options.name, runId }, event)),
            toResult(),
          ),
        );
        if (result.reason !== 'completed') {
          throw new Error(
            `The sub-agent ${options.name} stopped (${result.reason}): ${result.signal.message}`,
          );
        }
        return result.text;
      } finally {
        await runs.close();
      }
    },
  });
  return { tool: researcher, durability: 'idempotent' };
}
