import { Agent, runAgent, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { z } from 'zod';
import { subagentTool } from './subagent-tool.js';
import { toolEnds, resultText } from './test-helpers.test.js';

function setup() {
  const deleted: string[] = [];
  const remove = tool({
    name: 'remove',
    description: 'Delete a file',
    parameters: z.object({ path: z.string() }),
    needsApproval: true,
    execute: ({ path }) => {
      deleted.push(path);
      return `deleted ${path}`;
    },
  });
  const worker = scriptedModel([
    toolCallTurn({ name: 'remove', args: { path: 'old.log' }, id: 'w1' }),
    (request) => textTurn(`worker saw: ${JSON.stringify(request.messages.at(-1))}`),
  ]);
  const subagent = subagentTool({
    agents: { worker: { description: 'Does things', model: worker, tools: [remove] } },
  });
  const parent = scriptedModel([
    toolCallTurn({ name: 'subagent', args: { agent: 'worker', task: 'Clean up' }, id: 'p1' }),
    textTurn('Done.'),
  ]);
  return { deleted, subagent, parent };
}

describe('approvals inside a sub-run', () => {
  it('surface to the parent Agent: pending in its state, decided with agent.approve(id)', async () => {
    const { deleted, subagent, parent } = setup();
    const agent = new Agent({ model: parent, tools: [subagent] });
    const pending: string[][] = [];
    agent.subscribe((event, state) => {
      if (event.type !== 'approval-request') return;
      pending.push(state.pendingApprovals.map((a) => a.toolCallId));
      setTimeout(() => agent.approve(event.toolCallId), 0);
    });
    await agent.prompt('Clean up please');

    expect(pending).toEqual([['p1/0/w1']]);
    expect(deleted).toEqual(['old.log']);
    expect(agent.state$.value.pendingApprovals).toEqual([]);
  });

  it('a rejection reaches the sub-agent as an error result with the reason', async () => {
    const { deleted, subagent, parent } = setup();
    const agent = new Agent({ model: parent, tools: [subagent] });
    agent.subscribe((event) => {
      if (event.type === 'approval-request')
        setTimeout(() => agent.reject(event.toolCallId, 'Keep the logs.'), 0);
    });
    const result = await agent.prompt('Clean up please');

    expect(deleted).toEqual([]);
    const toolMessage = result.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(toolMessage)).toContain('Keep the logs.');
  });

  it("uses the parent run's approver function, with the nested call's id", async () => {
    const { deleted, subagent, parent } = setup();
    const asked: string[] = [];
    const events = await collectEvents(
      runAgent({
        model: parent,
        tools: [subagent],
        prompt: 'Clean up',
        approver: ({ toolCallId, toolName }) => {
          asked.push(`${toolCallId} ${toolName}`);
          return true;
        },
      }),
    );
    expect(asked).toEqual(['p1/0/w1 remove']);
    expect(deleted).toEqual(['old.log']);
    const kinds = events.map((e: AgentEvent) => e.type).filter((t) => t.startsWith('approval'));
    expect(kinds).toEqual(['approval-request', 'approval-end']);
  });

  it('fails closed when the parent has no approver', async () => {
    const { deleted, subagent, parent } = setup();
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Clean up' }));
    expect(deleted).toEqual([]);
    expect(resultText(toolEnds(events)[0])).toContain('no approver is configured');
  });
});
