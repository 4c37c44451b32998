import type { AnyTool, ApprovalDecision, Approver, ToolResult } from '@rxagent/core';
import type { RichToolOutput } from '@rxagent/core/provider';
import { MissingToolResultError } from './replay-errors.js';
import type { RunLog } from './run-log.js';

/**
 * `tools` whose `execute` answers with the recorded result of the same call (by tool-call id)
 * instead of running: their names, schemas and approval rules stay the current code's. A call
 * the recording has no result for throws `MissingToolResultError` (the model reads it as an
 * error result; the tool never runs).
 *
 * @example
 * const tools = recordedTools(log, [read, write]);
 */
export function recordedTools(log: RunLog, tools: readonly AnyTool[]): AnyTool[] {
  const results = new Map<string, ToolResult>();
  for (const { event } of log.events)
    if (event.type === 'tool-end') results.set(event.toolCallId, event.result);
  return tools.map((original): AnyTool => ({
    ...original,
    toModelOutput: undefined,
    execute: (_args, { toolCallId }): RichToolOutput => {
      const result = results.get(toolCallId);
      if (!result) throw new MissingToolResultError(toolCallId, original.name);
      return {
        content: result.content,
        isError: result.isError,
        ...(result.usage ? { usage: result.usage } : {}),
      };
    },
  }));
}

/**
 * An approver that gives each call the decision the recording holds (a call with none is
 * rejected: approvals fail closed).
 *
 * @example
 * runAgent({ model, tools, approver: recordedApprover(log), prompt });
 */
export function recordedApprover(log: RunLog): Approver {
  const decisions = new Map<string, ApprovalDecision>();
  for (const { event } of log.events) {
    if (event.type === 'approval-end') {
      decisions.set(event.toolCallId, {
        approved: event.approved,
        ...(event.reason ? { reason: event.reason } : {}),
      });
    }
  }
  return ({ toolCallId }) =>
    decisions.get(toolCallId) ?? { approved: false, reason: 'The recording has no decision for this call.' };
}
