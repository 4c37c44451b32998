import { assistantMessage } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { userMessage } from '../messages/message-helpers.js';
import type { AgentMessage, ToolResultMessage } from '../messages/types.js';
import { AppendLog } from '../util/append-log.js';
import { initialAgentState, type AgentState } from './agent-state.js';
import { reduceAgentState } from './reduce-agent-state.js';
import { terminate } from './terminate.js';

const call = (id: string) =>
  assistantMessage([{ type: 'tool-call', id, name: 'echo', args: {} }], 'tool-calls');
const result = (id: string): ToolResultMessage => ({
  role: 'tool',
  toolCallId: id,
  toolName: 'echo',
  content: [{ type: 'text', text: 'ok' }],
  isError: false,
  timestamp: 0,
});
const end = (message: AgentMessage): AgentEvent => ({ type: 'message-end', message });

afterEach(() => jest.restoreAllMocks());

describe('reduceAgentState: the transcript', () => {
  it('starts from the transcript agent-start carries, replacing the one it had', () => {
    const prior = [userMessage('earlier', 0), assistantMessage([{ type: 'text', text: 'hi' }])];
    let s = initialAgentState([userMessage('stale', 0)]);
    s = reduceAgentState(s, { type: 'agent-start', runId: 'r', messages: prior });
    expect(s.messages).toBe(prior);
    s = reduceAgentState(s, end(userMessage('next', 1)));
    expect(s.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    expect(prior).toHaveLength(2);
  });

  it('keeps the transcript it has when agent-start carries none', () => {
    const prior = [userMessage('earlier', 0)];
    const s = reduceAgentState(initialAgentState(prior), { type: 'agent-start', runId: 'r' });
    expect(s.messages).toBe(prior);
  });

  it('appends 20,000 messages without copying the transcript: one copy of the prior array, no fork', () => {
    const of = jest.spyOn(AppendLog, 'of');
    const append = jest.spyOn(AppendLog.prototype, 'append');
    let s = initialAgentState([userMessage('prior', 0)]);
    const snapshots: AgentState[] = [];
    for (let k = 0; k < 10_000; k++) {
      s = reduceAgentState(s, end(call(`c${k}`)));
      s = reduceAgentState(s, end(result(`c${k}`)));
      if (k % 1000 === 0) snapshots.push(s);
    }
    expect(s.messages).toHaveLength(20_001);
    expect(of).toHaveBeenCalledTimes(1);
    const logs = append.mock.results.map((r) => r.value as AppendLog<AgentMessage>);
    const last = logs.at(-1) as AppendLog<AgentMessage>;
    expect(logs.every((log) => log.sharesStoreWith(last))).toBe(true);
    // Earlier states still hold the transcript they had.
    snapshots.forEach((snapshot, i) => expect(snapshot.messages).toHaveLength(3 + 2000 * i));
    expect(Array.isArray(s.messages)).toBe(true);
    expect(JSON.parse(JSON.stringify(s.messages.slice(-2)))).toEqual([call('c9999'), result('c9999')]);
  });
});

describe('terminate over a view transcript', () => {
  it('closes the open call and keeps the transcript a view', () => {
    let s = initialAgentState([userMessage('go', 0)]);
    s = reduceAgentState(s, end(call('a')));
    s = reduceAgentState(s, { type: 'tool-start', toolCallId: 'a', toolName: 'echo', args: {} });
    const before = s.messages;
    const of = jest.spyOn(AppendLog, 'of');
    const done = terminate(s, 'cancelled', undefined, 5);
    expect(of).not.toHaveBeenCalled();
    expect(done.messages).toHaveLength(3);
    expect(done.messages[2]).toMatchObject({ role: 'tool', toolCallId: 'a', isError: true, timestamp: 5 });
    expect(before).toHaveLength(2);
  });
});
