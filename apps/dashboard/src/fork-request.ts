import type { AssistantMessage } from '@rxagent/core';
import { ForkError, type ForkEdit, type ForkPoint, type RunLog } from '@rxagent/replay';

/**
 * What _Fork here_ asks for (`POST /runs/:id/fork`): a tool call's result, or a step's model
 * answer, replaced by `text`.
 *
 * @example
 * const request: ForkRequest = { at: { toolCallId: 'call_1' }, text: '0 matches' };
 */
export interface ForkRequest {
  at: { toolCallId: string } | { step: number };
  text: string;
}

/**
 * The fork point and edit of a request, read against the parent's log: a tool result is
 * edited at the end of the step that made the call (`{ toolCallId }`, a `tool-result` edit); a
 * step's answer at the end of that step (`{ step }`, a `replace-message` of its model message
 * with the text in place of its text parts, its tool calls kept). A step the log has not (or
 * with no model message) is a `ForkError`; `forkRun` checks the rest.
 *
 * @example
 * const { at, edit, what } = forkEditOf(log, { at: { step: 2 }, text: 'The answer is 5.' });
 */
export function forkEditOf(
  log: RunLog,
  request: ForkRequest,
): { at: ForkPoint; edit: ForkEdit; what: string } {
  if ('toolCallId' in request.at) {
    const { toolCallId } = request.at;
    return {
      at: { toolCallId },
      edit: { kind: 'tool-result', toolCallId, content: request.text },
      what: `the result of ${toolCallId}`,
    };
  }
  const { step } = request.at;
  let found: number | undefined;
  for (const s of log.snapshots) if (s.step === step) found = s.index;
  if (found === undefined) {
    const steps = log.snapshots.map((s) => s.step);
    throw new ForkError(
      `No step ${step} to fork at: the log has ${steps.length ? `steps ${steps[0]} to ${steps.at(-1)}` : 'no step yet'}.`,
    );
  }
  const snapshot = log.snapshot(found);
  const index = snapshot.assistantIndex;
  const old = index === undefined ? undefined : snapshot.messages[index];
  if (index === undefined || old?.role !== 'assistant') {
    throw new ForkError(`Step ${step} has no model answer to edit: fork at a step whose model answered.`);
  }
  const message: AssistantMessage = {
    ...old,
    content: [{ type: 'text', text: request.text }, ...old.content.filter((p) => p.type !== 'text')],
  };
  return {
    at: { step },
    edit: { kind: 'replace-message', index, message },
    what: `the answer of step ${step}`,
  };
}
