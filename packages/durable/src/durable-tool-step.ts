import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ToolMiddleware, ToolResult } from '@rxagent/core';
import { from, lastValueFrom } from 'rxjs';
import type { ToolDurability } from './durable-tool.js';
import { handleEngineError, type RunControl } from './run-control.js';

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
 * The tool seam of a durable run, innermost of the middlewares: each call is a DBOS step named
 * `tool:<call id>` that records the call's result. An at-most-once call first records a
 * `tool-begin` marker step; when a replay finds the marker but no result, the call may have
 * started before the crash, so it is sealed with `INTERRUPTED_TEXT` instead of run again. An
 * idempotent call without a result is simply run again.
 */
export function durableToolStep(
  durabilityOf: (name: string) => ToolDurability,
  control: RunControl,
): ToolMiddleware {
  return (call, _ctx, next) =>
    from(
      (async (): Promise<ToolResult> => {
        try {
          let began = false;
          if (durabilityOf(call.name) === 'at-most-once') {
            await DBOS.runStep(
              () => {
                began = true;
                return Promise.resolve(true);
              },
              { name: `tool-begin:${call.id}` },
            );
          }
          const sealed = durabilityOf(call.name) === 'at-most-once' && !began;
          return await DBOS.runStep(async () => (sealed ? INTERRUPTED : lastValueFrom(next(call))), {
            name: `tool:${call.id}`,
          });
        } catch (error) {
          if (handleEngineError(control, error)) return new Promise<ToolResult>(() => undefined);
          throw error;
        }
      })(),
    );
}
