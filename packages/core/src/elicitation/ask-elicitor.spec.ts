import { z } from 'zod';
import { map, NEVER, of, tap, throwError, timer } from 'rxjs';
import {
  collectEvents,
  createTestScheduler,
  scriptedModel,
  textTurn,
  timeline,
  toMarbleLetters,
  toolCallTurn,
} from '@rxagent/testing';
import type { AgentEvent, ToolEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { tool } from '../tools/tool.js';
import { askElicitor } from './ask-elicitor.js';
import type { ElicitationSchema, Elicitor } from './elicitation-types.js';

const guests: ElicitationSchema = {
  type: 'object',
  properties: { guests: { type: 'integer', minimum: 1 }, terrace: { type: 'boolean', default: false } },
  required: ['guests'],
};

/** A tool that asks how many guests before it books. */
const book = tool({
  name: 'book',
  description: 'Books a table',
  parameters: z.object({}),
  execute: (_args, ctx) =>
    ctx.elicit!({ message: 'How many guests?', requestedSchema: guests, source: 'restaurants' }).pipe(
      map((r) =>
        r.action === 'accept' ? `Booked: ${JSON.stringify(r.content)}` : `Not booked (${r.action})`,
      ),
    ),
});

const request = {
  elicitationId: 'call_1/elicitation-1',
  toolCallId: 'call_1',
  toolName: 'book',
  message: 'How many guests?',
  requestedSchema: guests,
};

async function runBook(elicit?: Elicitor) {
  const model = scriptedModel([toolCallTurn({ name: 'book', args: {} }), textTurn('done')]);
  const events = await collectEvents(
    runAgent({ model, prompt: 'go', tools: [book], ...(elicit ? { elicit } : {}) }),
  );
  const end = events.find((e): e is ToolEndEvent => e.type === 'tool-end');
  const text = end?.result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  return { events, text, ends: events.filter((e) => e.type === 'elicitation-end') };
}

describe('askElicitor', () => {
  function ask(elicitor: Elicitor | undefined) {
    const events: AgentEvent[] = [];
    let response: unknown;
    askElicitor(elicitor, request, (e) => events.push(e)).subscribe((r) => (response = r));
    return { events, response };
  }

  it('emits elicitation-request and elicitation-end around the answer, values never in events', () => {
    const { events, response } = ask(() => of({ action: 'accept' as const, content: { guests: 4 } }));
    expect(response).toEqual({ action: 'accept', content: { guests: 4, terrace: false } });
    expect(events).toEqual([
      { type: 'elicitation-request', ...request },
      {
        type: 'elicitation-end',
        elicitationId: request.elicitationId,
        toolCallId: 'call_1',
        toolName: 'book',
        action: 'accept',
      },
    ]);
  });

  it('fails closed: no elicitor, a failing one, no answer or invalid values decline with a reason', () => {
    expect(ask(undefined).response).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(/No one could be asked/),
    });
    expect(ask(() => throwError(() => new Error('down'))).response).toEqual({
      action: 'decline',
      reason: 'The elicitor failed, so the request was declined: down',
    });
    expect(ask(() => of()).response).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(/no answer/),
    });
    const invalid = ask(() => ({ action: 'accept', content: { guests: 0 } }));
    expect(invalid.response).toEqual({
      action: 'decline',
      reason: 'The values do not fit the form: "guests": expected at least 1.',
    });
    expect(invalid.events.at(-1)).toMatchObject({
      action: 'decline',
      reason: expect.stringMatching(/guests/),
    });
  });

  it('declines a form outside the allowed subset without asking, with a warning', () => {
    let asked = false;
    const events: AgentEvent[] = [];
    let response: unknown;
    const nested = {
      type: 'object',
      properties: { address: { type: 'object' } },
    } as unknown as ElicitationSchema;
    askElicitor(
      () => {
        asked = true;
        return { action: 'accept' };
      },
      { ...request, requestedSchema: nested },
      (e) => events.push(e),
    ).subscribe((r) => (response = r));
    expect(asked).toBe(false);
    expect(response).toMatchObject({ action: 'decline' });
    expect(events).toEqual([
      { type: 'warning', message: expect.stringMatching(/field "address" has type "object"/) },
    ]);
  });

  it('ends as cancel when unsubscribed before an answer (the call ended)', () => {
    const events: AgentEvent[] = [];
    askElicitor(
      () => NEVER,
      request,
      (e) => events.push(e),
    )
      .subscribe()
      .unsubscribe();
    expect(events.map((e) => e.type)).toEqual(['elicitation-request', 'elicitation-end']);
    expect(events[1]).toMatchObject({ action: 'cancel' });
  });
});

describe('elicitation in a run (ctx.elicit and the elicit config key)', () => {
  it('waits for the run’s elicit and gives the tool the validated values with defaults', async () => {
    const { text, events } = await runBook(() => ({ action: 'accept', content: { guests: 2 } }));
    expect(text).toBe('Booked: {"guests":2,"terrace":false}');
    expect(events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['elicitation-request', 'elicitation-end']),
    );
    expect(JSON.stringify(events.filter((e) => e.type.startsWith('elicitation')))).not.toContain(
      '"guests":2',
    );
  });

  it('declines without an elicit function, and the run goes on with a readable result', async () => {
    const { text, ends, events } = await runBook();
    expect(text).toBe('Not booked (decline)');
    expect(ends[0]).toMatchObject({ action: 'decline', reason: expect.stringMatching(/no elicit function/) });
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('declines an elicitation whose elicitor races a timeout on the scheduler', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ expectObservable }) => {
      const model = scriptedModel([toolCallTurn({ name: 'book', args: {} }), textTurn('ok')]);
      const run$ = runAgent({
        model,
        tools: [book],
        prompt: 'go',
        elicit: () => timer(3000).pipe(map(() => ({ action: 'decline' as const }))),
      }).pipe(tap((e) => events.push(e)));
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSESUUEsK'], [3000, 'keSENTSUUENZ|']),
      );
    });
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Not booked (decline)' }] },
    });
  });

  it('folds pending elicitations into the state and clears them when the call ends', async () => {
    const { reduceAgentState } = await import('../state/reduce-agent-state.js');
    const { initialAgentState } = await import('../state/agent-state.js');
    const { events } = await runBook(() => ({ action: 'cancel' }));
    const i = events.findIndex((e) => e.type === 'elicitation-request');
    const waiting = events.slice(0, i + 1).reduce(reduceAgentState, initialAgentState());
    expect(waiting.pendingElicitations).toEqual([
      {
        ...request,
        elicitationId: expect.stringMatching(/elicitation-1$/),
        toolCallId: expect.any(String),
        source: 'restaurants',
      },
    ]);
    expect(events.reduce(reduceAgentState, initialAgentState()).pendingElicitations).toEqual([]);
  });
});
