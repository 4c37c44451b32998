import type { ToolMiddleware, ToolResult } from '@rxagent/core';
import { from, lastValueFrom } from 'rxjs';
import type { ToolDurability } from './durable-tool.js';
import type { RunRecords } from './run-records.js';

/**
 * What the model reads for an at-most-once call that a worker crash may have cut short.
 *
 * @example
 * const sealed = messages.filter((m) => m.role === 'tool' && contentText(m) === INTERRUPTED_TEXT);
 */
export const INTERRUPTED_TEXT =
  'This tool call was interrupted by a worker crash; it may or may not have taken effect. ' +
  'Check its effect before calling it again.';

const INTERRUPTED: ToolResult = {
  content: [{ type: 'text', text: INTERRUPTED_TEXT }],
  isError: true,
  errorType: 'interrupted',
};

/**
 * The tool seam of a durable run, innermost of the middlewares: each call's result is recorded
 * in `tool_calls` under (run id, run-unique call id), so calls that run in parallel find their
 * own records after a crash, whatever order they finished in (DBOS's steps are matched by the
 * order they are issued, which parallel calls do not keep). A recorded call returns its record
 * (the execution read the run's rows when it started: no read per call).
 * An at-most-once call first records that it began; a replay that finds it begun but without a
 * result knows it may have started, and seals it with `INTERRUPTED_TEXT` instead of running it
 * again. An idempotent call without a result is run again. The first result stored wins, so a
 * worker that lost the run cannot change what the run read.
 */
export function durableToolStep(
  durabilityOf: (name: string) => ToolDurability,
  records: RunRecords,
): ToolMiddleware {
  return (call, _ctx, next) =>
    from(
      (async (): Promise<ToolResult> => {
        const recorded = records.tool(call.id);
        if (recorded?.result) return recorded.result;
        // An at-most-once call begun in an execution before this one may have started: sealed.
        const sealed =
          durabilityOf(call.name) === 'at-most-once' &&
          (recorded?.began === true || !(await records.begin(call.id)));
        const result = sealed ? INTERRUPTED : await lastValueFrom(next(call));
        return records.storeToolResult(call.id, result);
      })(),
    );
}
