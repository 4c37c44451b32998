import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import { EventType, type BaseEvent, type Message } from '@ag-ui/core';
import { EventSchemas } from '@ag-ui/core/schemas';
import { runAgent, tool } from '@rxagent/core';
import {
  assistantMessage,
  errorTurn,
  finishEvent,
  scriptedModel,
  textTurn,
  toolCallTurn,
} from '@rxagent/testing';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { agUINodeHandler } from './ag-ui-node-handler.js';
import { RxAgentAGUIAgent, type AGUIRunRequest } from './rxagent-ag-ui-agent.js';

// The real AG-UI client (`HttpAgent` of @ag-ui/client, with its own event verification) against
// an rxagent agent served on 127.0.0.1; every event it receives is validated with @ag-ui/core's
// schemas.
jest.setTimeout(30_000);

const lookUp = tool({
  name: 'look_up',
  description: 'Looks a word up',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a value over time`,
});
const deleteNotes = tool({
  name: 'delete_notes',
  description: 'Deletes notes (asks first)',
  parameters: z.object({ topic: z.string() }),
  needsApproval: true,
  execute: ({ topic }) => `Deleted the notes on ${topic}.`,
});

function thinkThenLookUp() {
  const call = {
    type: 'tool-call' as const,
    id: 'call_look_up',
    name: 'look_up',
    args: { word: 'observable' },
  };
  const message = assistantMessage([{ type: 'thinking', text: 'Look it up.' }, call], 'tool-calls');
  return {
    events: [
      { type: 'thinking-delta' as const, index: 0, text: 'Look it up.' },
      { type: 'toolcall-end' as const, index: 1, call },
      finishEvent(message),
    ],
  };
}

const requests: AGUIRunRequest[] = [];
const startRun = ({ messages, approver, input }: AGUIRunRequest) => {
  requests.push({ messages, approver, input });
  const prompt = messages.at(-1)?.role === 'user' ? String(messages.at(-1)?.content) : '';
  if (prompt === 'fail') {
    return runAgent({
      model: scriptedModel([errorTurn(new Error('upstream exploded'))]),
      prompt: messages,
      maxRetries: 0,
    });
  }
  const model = scriptedModel([
    thinkThenLookUp(),
    toolCallTurn([{ name: 'delete_notes', id: 'call_delete_notes', args: { topic: 'observables' } }]),
    textTurn('An observable is a value over time.', { chunks: 6 }),
  ]);
  return runAgent({ model, tools: [lookUp, deleteNotes], prompt: messages, approver: approver });
};

let server: Server;
let url: string;
const agent = new RxAgentAGUIAgent({ agentId: 'rxagent', start: startRun });

beforeAll(async () => {
  server = createServer((req, res) => void agUINodeHandler(agent)(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/agent`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** An HttpAgent on a new thread that records (and schema-checks) every event it gets. */
function client(threadId: string, prompt: string) {
  const http = new HttpAgent({
    url,
    threadId,
    initialMessages: [{ id: `${threadId}-u1`, role: 'user', content: prompt }],
  });
  const events: BaseEvent[] = [];
  const invalid: string[] = [];
  const subscriber: AgentSubscriber = {
    onEvent: ({ event }) => {
      const checked = EventSchemas.safeParse(event);
      if (!checked.success) invalid.push(`${event.type}: ${checked.error.message}`);
      events.push(event);
    },
  };
  http.subscribe(subscriber);
  return { http, events, invalid, types: () => events.map((e) => e.type) };
}

const byRole = (messages: Message[], role: Message['role']) => messages.filter((m) => m.role === role);

describe('RxAgentAGUIAgent served over HTTP, driven by @ag-ui/client HttpAgent', () => {
  it('streams a run, stops at an approval as an interrupt, and goes on in the same run after resume', async () => {
    const c = client('thread-1', 'What is an observable?');
    await c.http.runAgent();
    expect(c.invalid).toEqual([]);
    expect(c.types()).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT',
      'STATE_DELTA', // agent-start: the run id
      'STEP_STARTED',
      'STATE_DELTA', // phase llm-in-flight, step 1
      'REASONING_START',
      'REASONING_MESSAGE_START',
      'REASONING_MESSAGE_CONTENT',
      'REASONING_MESSAGE_END',
      'REASONING_END',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'STATE_DELTA', // step-finished
      'STATE_DELTA', // tool-executing
      'TOOL_CALL_RESULT',
      'STATE_DELTA', // toolOutcomes/call_look_up: executed
      'STEP_FINISHED',
      'STEP_STARTED',
      'STATE_DELTA',
      'TOOL_CALL_START',
      'TOOL_CALL_ARGS',
      'TOOL_CALL_END',
      'STATE_DELTA',
      'STATE_DELTA',
      'STATE_DELTA', // pendingApprovals: the call waits
      'STEP_FINISHED', // the interrupt closes the step; the resumed run opens it again
      'RUN_FINISHED',
    ]);
    const patches = c.events
      .filter((e) => e.type === EventType.STATE_DELTA)
      .map((e) => (e as unknown as { delta: unknown[] }).delta);
    expect(patches).toContainEqual([{ op: 'add', path: '/toolOutcomes/call_look_up', value: 'executed' }]);
    const finished = c.events.at(-1) as unknown as {
      outcome: { type: string; interrupts: Record<string, unknown>[] };
    };
    expect(finished.outcome.type).toBe('interrupt');
    expect(finished.outcome.interrupts).toEqual([
      expect.objectContaining({
        id: 'call_delete_notes',
        toolCallId: 'call_delete_notes',
        reason: 'tool-approval',
      }),
    ]);
    expect(c.http.pendingInterrupts.map((i) => i.id)).toEqual(['call_delete_notes']);
    expect(c.http.state).toMatchObject({
      phase: 'tool-executing',
      step: 2,
      pendingApprovals: [{ toolCallId: 'call_delete_notes', toolName: 'delete_notes' }],
      toolOutcomes: { call_look_up: 'executed' },
    });
    expect(agent.waitingThreads).toEqual(['thread-1']);

    await c.http.runAgent({
      resume: [{ interruptId: 'call_delete_notes', status: 'resolved', payload: { approved: true } }],
    });
    expect(c.invalid).toEqual([]);
    const second = c.events.slice(c.events.findIndex((e, i) => i > 0 && e.type === EventType.RUN_STARTED));
    expect(second[0]?.type).toBe('RUN_STARTED');
    expect(second.at(-1)).toMatchObject({
      type: 'RUN_FINISHED',
      outcome: { type: 'success' },
      result: { reason: 'completed', steps: 3 },
    });
    expect(c.http.pendingInterrupts).toEqual([]);
    expect(agent.waitingThreads).toEqual([]);
    // Both AG-UI runs built one conversation in the client: calls, results, answer.
    const assistants = byRole(c.http.messages, 'assistant') as Extract<Message, { role: 'assistant' }>[];
    expect(
      assistants.flatMap((m) =>
        (m.toolCalls ?? []).map((t) => [t.function.name, JSON.parse(t.function.arguments) as unknown]),
      ),
    ).toEqual([
      ['look_up', { word: 'observable' }],
      ['delete_notes', { topic: 'observables' }],
    ]);
    expect(assistants.at(-1)?.content).toBe('An observable is a value over time.');
    expect(byRole(c.http.messages, 'tool').map((m) => m.content)).toEqual([
      'observable: a value over time',
      'Deleted the notes on observables.',
    ]);
    expect(byRole(c.http.messages, 'reasoning').map((m) => m.content)).toEqual(['Look it up.']);
    expect(c.http.state).toMatchObject({
      phase: 'idle', // agent-end folded (the terminal phase comes with the stream's completion)
      stopReason: 'completed',
      step: 3,
      pendingApprovals: [],
      toolOutcomes: { call_look_up: 'executed', call_delete_notes: 'executed' },
    });
    // The server ran the thread once: the resume went on with the same run.
    expect(requests.filter((r) => r.input.threadId === 'thread-1')).toHaveLength(1);
    expect(requests.find((r) => r.input.threadId === 'thread-1')?.messages).toEqual([
      { role: 'user', content: 'What is an observable?', timestamp: 0 },
    ]);
  });

  it('carries a rejection to the run: the call ends rejected (typed outcome) and the run stops', async () => {
    const c = client('thread-2', 'Tidy up');
    await c.http.runAgent();
    await c.http.runAgent({
      resume: [
        {
          interruptId: 'call_delete_notes',
          status: 'resolved',
          payload: { approved: false, reason: 'Not now' },
        },
      ],
    });
    expect(c.invalid).toEqual([]);
    const result = c.events.find(
      (e) =>
        e.type === EventType.TOOL_CALL_RESULT &&
        (e as unknown as { toolCallId: string }).toolCallId === 'call_delete_notes',
    );
    expect(result).toMatchObject({
      content: 'Not now',
      metadata: { rxagent: { outcome: 'rejected', isError: true } },
    });
    expect(c.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', result: { reason: 'rejected' } });
    expect(c.http.state).toMatchObject({
      stopReason: 'rejected',
      toolOutcomes: { call_delete_notes: 'rejected' },
    });
  });

  it('fails closed: a resume without an approval in its payload rejects the call', async () => {
    const c = client('thread-3', 'Tidy up');
    await c.http.runAgent();
    await c.http.runAgent({
      resume: [{ interruptId: 'call_delete_notes', status: 'resolved', payload: 'yes' }],
    });
    expect(c.http.state).toMatchObject({ toolOutcomes: { call_delete_notes: 'rejected' } });
  });

  it('ends a failed run with RUN_ERROR (name and message only)', async () => {
    const c = client('thread-4', 'fail');
    await c.http.runAgent();
    expect(c.invalid).toEqual([]);
    const error = c.events.find((e) => e.type === EventType.RUN_ERROR) as unknown as {
      message: string;
      code: string;
    };
    expect(error.message).toMatch(/upstream exploded/);
    expect(error.message).not.toMatch(/\n\s+at /);
    expect(c.types().at(-1)).toBe('RUN_ERROR');
  });

  it('answers a resume of nothing waiting with RUN_ERROR (AGUIInputError), running nothing', async () => {
    const before = requests.length;
    const c = client('thread-5', 'hi');
    await c.http.runAgent({
      resume: [{ interruptId: 'call_nope', status: 'resolved', payload: { approved: true } }],
    });
    expect(c.types()).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(c.events.find((e) => e.type === EventType.RUN_ERROR)).toMatchObject({ code: 'AGUIInputError' });
    expect(requests.length).toBe(before);
  });

  it('answers a body that is not a RunAgentInput with 400 and the schema issues', async () => {
    const response = await fetch(url, { method: 'POST', body: JSON.stringify({ threadId: 't' }) });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { issues: string[] };
    expect(body.issues.join('\n')).toMatch(/runId/);
  });
});
