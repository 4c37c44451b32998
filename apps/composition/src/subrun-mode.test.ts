import { MessageQueue, runAgent, type AgentEvent } from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import { runResult } from '@rxagent/core/streams';
import { subagentTool, type SubagentConfig } from '@rxagent/subagents';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { tap } from 'rxjs';
import { CELL_PROMPT, type Capability, type CellEnv, type CellRun } from './cell-types.test.js';

// The sub-run column: the cell runs as a sub-agent of a parent runAgent. What the cell checks
// is the sub-run (its events as the parent's stream carried them); the parent must have carried
// every one and counted its spending.

const PARENT_CALL = 'parent-call';
const parentUsage = { inputTokens: 7, outputTokens: 3 };

/** A parent event's sub-run event as the cell's own run emitted it (nested ones re-wrapped). */
function asCellEvent(e: AgentEvent): AgentEvent | undefined {
  if (e.type !== 'subrun' || e.path[0]?.toolCallId !== PARENT_CALL) return undefined;
  if (e.path.length === 1) return e.event;
  const path = e.path.slice(1);
  return { type: 'subrun', toolCallId: path[0]?.toolCallId ?? '', path, event: e.event };
}

/**
 * Runs the cell as the sub-agent `cell` of a parent run. Steering and follow-ups go in the
 * sub-agent's config, which `subagentTool` refuses (a sub-run's only input is its task).
 */
export async function runInSubrun(cell: Capability, env: CellEnv): Promise<CellRun> {
  const model = scriptedModel(cell.turns());
  const config: SubagentConfig & Record<string, unknown> = {
    description: 'Runs the cell',
    model,
    ...cell.config?.(env),
    ...(cell.steer ? { steering$: new MessageQueue() } : {}),
    ...(cell.followUp ? { followUp$: new MessageQueue() } : {}),
  };
  const subagent = subagentTool({ agents: { cell: config } });
  const parent = scriptedModel([
    toolCallTurn(
      { name: 'subagent', args: { agent: 'cell', task: CELL_PROMPT }, id: PARENT_CALL },
      { usage: parentUsage },
    ),
    textTurn('The sub-agent is done.', { usage: parentUsage }),
  ]);
  const events: AgentEvent[] = [];
  const parentEnd = await runResult(
    runAgent({
      model: parent,
      prompt: 'Hand it to the sub-agent.',
      tools: [subagent],
      ...(cell.approve ? { approver: () => ({ approved: true }) } : {}),
    }).pipe(
      tap((e) => {
        const own = asCellEvent(e);
        if (own) events.push(own);
      }),
    ),
  );
  const end = events.at(-1);
  expect(end?.type).toBe('agent-end');
  const { reason, messages, output, usage } = end as AgentEndEvent;
  // The parent carried the sub-run to its end and spent what it spent.
  expect(parentEnd.reason).toBe('completed');
  expect(parentEnd.usage).toMatchObject({
    inputTokens: 2 * parentUsage.inputTokens + usage.inputTokens,
    outputTokens: 2 * parentUsage.outputTokens + usage.outputTokens,
  });
  return { events, reason, messages, output, usage, requests: model.requests };
}
