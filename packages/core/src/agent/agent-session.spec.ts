import { z } from 'zod';
import { map, timer } from 'rxjs';
import { assistantMessage, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentConfigError } from '../errors/agent-errors.js';
import { SessionConflictError } from '../errors/session-conflict-error.js';
import { contentText, userMessage } from '../messages/message-helpers.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage } from '../messages/types.js';
import { InMemorySession } from '../session/in-memory-session.js';
import type { Session } from '../session/session.js';
import { tool } from '../tools/tool.js';
import { Agent } from './agent.js';

const sleep = tool({
  name: 'sleep',
  description: 'sleep',
  parameters: z.object({ ms: z.number() }),
  execute: ({ ms }) => timer(ms).pipe(map(() => `slept ${ms}`)),
});
const roles = (messages: readonly AgentMessage[]) => messages.map((m) => m.role);

/** Counts the appends a session receives. */
function recorded(session: Session): Session & { appends: number[] } {
  const appends: number[] = [];
  return {
    id: session.id,
    appends,
    load: () => session.load(),
    clear: (v) => session.clear(v),
    append: (messages, v) => {
      appends.push(messages.length);
      return session.append(messages, v);
    },
  };
}

describe('Agent with a session', () => {
  it('loads the transcript before the first run and appends each completed message', async () => {
    const store = new InMemorySession('chat');
    await store.append(
      [userMessage('My name is Ada.'), assistantMessage([{ type: 'text', text: 'Hi Ada.' }])],
      0,
    );
    const session = recorded(store);
    const model = scriptedModel([
      toolCallTurn({ name: 'sleep', args: { ms: 1 }, id: 'c1' }),
      textTurn('Ada.'),
    ]);
    const agent = new Agent({ model, tools: [sleep], session });
    await agent.prompt('What is my name?');
    // The model saw the stored exchange.
    expect(roles(model.requests[0]?.messages ?? [])).toEqual(['user', 'assistant', 'user']);
    const { messages, version } = await store.load();
    expect(roles(messages)).toEqual(['user', 'assistant', 'user', 'assistant', 'tool', 'assistant']);
    expect(messages).toEqual(JSON.parse(JSON.stringify(agent.messages)));
    // One append per completed message (prompt, call, result, answer), in order.
    expect(session.appends).toEqual([1, 1, 1, 1]);
    expect(version).toBe(5);
  });

  it('an aborted run leaves a valid transcript in the session (the cancelled call closed)', async () => {
    const session = new InMemorySession();
    const model = scriptedModel([toolCallTurn({ name: 'sleep', args: { ms: 5000 }, id: 'c1' })]);
    const agent = new Agent({ model, tools: [sleep], session });
    agent.subscribe((event) => {
      if (event.type === 'tool-start') setTimeout(() => agent.abort(), 5);
    });
    const result = await agent.prompt('Sleep');
    expect(result.reason).toBe('user-requested');
    const { messages } = await session.load();
    expect(validateMessageSequence(messages)).toEqual([]);
    expect(roles(messages)).toEqual(roles(agent.messages));
  });

  it('a silent abort (cut mid-tool) still leaves a closed transcript', async () => {
    const session = new InMemorySession();
    const model = scriptedModel([toolCallTurn({ name: 'sleep', args: { ms: 5000 }, id: 'c1' })]);
    const agent = new Agent({ model, tools: [sleep], session });
    agent.subscribe((event) => {
      if (event.type === 'tool-start') setTimeout(() => agent.abort({ silent: true }), 5);
    });
    await agent.prompt('Sleep');
    const { messages } = await session.load();
    expect(validateMessageSequence(messages)).toEqual([]);
  });

  it('closes the calls a crashed process left open when loading, and writes that back', async () => {
    const session = new InMemorySession();
    const call = { type: 'tool-call' as const, id: 'c1', name: 'sleep', args: { ms: 1 } };
    await session.append([userMessage('Sleep'), assistantMessage([call], 'tool-calls')], 0);
    const agent = new Agent({ model: scriptedModel([textTurn('ok')]), session });
    await agent.loadSession();
    const { messages } = await session.load();
    expect(roles(messages)).toEqual(['user', 'assistant', 'tool']);
    expect(validateMessageSequence(messages)).toEqual([]);
  });

  it('two writers on one session: the second gets SessionConflictError, then reloads and goes on', async () => {
    const session = new InMemorySession('shared');
    const first = new Agent({ model: scriptedModel([textTurn('A1'), textTurn('A2')]), session });
    const second = new Agent({ model: scriptedModel([textTurn('B1'), textTurn('B2')]), session });
    await first.loadSession();
    await second.loadSession();
    await first.prompt('from first');
    await expect(second.prompt('from second')).rejects.toBeInstanceOf(SessionConflictError);
    // Nothing of the second writer's run entered the session.
    expect((await session.load()).messages.map((m) => contentText(m as never))).toEqual(['from first', 'A1']);
    // Its next run loads what the first wrote, then appends after it.
    await second.prompt('again');
    const texts = (await session.load()).messages.map((m) => contentText(m as never));
    expect(texts).toEqual(['from first', 'A1', 'again', 'B2']);
  });

  it('importMessages and reset rewrite the session', async () => {
    const session = new InMemorySession();
    const agent = new Agent({ model: scriptedModel([textTurn('x')]), session });
    await agent.loadSession();
    agent.importMessages([userMessage('a'), assistantMessage([{ type: 'text', text: 'b' }])]);
    await agent.waitForIdle();
    await new Promise((r) => setTimeout(r, 0));
    expect(roles((await session.load()).messages)).toEqual(['user', 'assistant']);
    agent.reset();
    await new Promise((r) => setTimeout(r, 0));
    expect((await session.load()).messages).toEqual([]);
  });

  it('refuses { session } with { messages }', () => {
    expect(
      () => new Agent({ model: scriptedModel([]), session: new InMemorySession(), messages: [] }),
    ).toThrow(AgentConfigError);
  });
});
