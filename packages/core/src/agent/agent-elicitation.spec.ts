import { z } from 'zod';
import { filter, firstValueFrom, map } from 'rxjs';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { ElicitationSchema } from '../elicitation/elicitation-types.js';
import type { AgentEvent } from '../events/agent-event.js';
import { contentText } from '../messages/message-helpers.js';
import { tool } from '../tools/tool.js';
import { Agent, type AgentConfig } from './agent.js';

const form: ElicitationSchema = {
  type: 'object',
  properties: { guests: { type: 'integer', minimum: 1 }, note: { type: 'string', default: '' } },
  required: ['guests'],
};

const book = tool({
  name: 'book',
  description: 'Books a table',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    ctx.elicit!({ message: 'How many guests?', requestedSchema: form }).pipe(
      map((r) =>
        r.action === 'accept' ? `Booked for ${String(r.content.guests)}` : `Not booked: ${r.action}`,
      ),
    ),
});

function agentWith(extra: Partial<AgentConfig> = {}) {
  const model = scriptedModel([toolCallTurn({ name: 'book', args: {} }), textTurn('done')]);
  const agent = new Agent({ model, tools: [book], ...extra });
  const events: AgentEvent[] = [];
  agent.subscribe((e) => events.push(e));
  const pending = firstValueFrom(
    agent.state$.pipe(
      map((s) => s.pendingElicitations[0]),
      filter((p) => p !== undefined),
    ),
  );
  return { agent, events, pending };
}

const toolText = (agent: Agent) =>
  agent.messages.flatMap((m) => (m.role === 'tool' ? [contentText(m)] : [])).join('\n');

describe('Agent.respond (elicitations wait like approvals)', () => {
  it('answers a pending elicitation with values; the state lists it until then', async () => {
    const { agent, pending } = agentWith();
    const run = agent.prompt('Book a table');
    const waiting = await pending;
    expect(waiting).toMatchObject({ toolName: 'book', message: 'How many guests?', requestedSchema: form });
    expect(agent.respond('no-such-id', { guests: 2 })).toBe(false);
    expect(agent.respond(waiting.elicitationId, { guests: 3 })).toBe(true);
    await run;
    expect(toolText(agent)).toBe('Booked for 3');
    expect(agent.state$.value.pendingElicitations).toEqual([]);
    expect(agent.respond(waiting.elicitationId, { guests: 4 })).toBe(false);
  });

  it('declines values that do not fit the form, with the reason in the event (fail closed)', async () => {
    const { agent, pending, events } = agentWith();
    const run = agent.prompt('Book a table');
    agent.respond((await pending).elicitationId, { guests: 'many' });
    await run;
    expect(toolText(agent)).toBe('Not booked: decline');
    expect(events.find((e) => e.type === 'elicitation-end')).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(/"guests": expected a number/),
    });
  });

  it('takes decline and cancel, and races the configured elicit (first answer wins)', async () => {
    const declined = agentWith();
    const run = declined.agent.prompt('Book a table');
    declined.agent.respond((await declined.pending).elicitationId, 'cancel');
    await run;
    expect(toolText(declined.agent)).toBe('Not booked: cancel');

    const configured = agentWith({ elicit: () => ({ action: 'accept', content: { guests: 8 } }) });
    await configured.agent.prompt('Book a table');
    expect(toolText(configured.agent)).toBe('Booked for 8');
  });
});
