import { initialAgentState, reduceAgentState, userMessage, type AgentEvent } from '@rxagent/core';
import { terminate } from '@rxagent/core/provider';
import { assistantMessage } from '@rxagent/testing';
import { describeEvent } from './run-event-view.js';
import { toRunSnapshot } from './run-snapshot.js';
import { ARGUMENT_LIMIT, TEXT_LIMIT } from './text-limits.js';
import { describeProgress, summarizeArgs } from './value-summary.js';

const usage = {
  inputTokens: 100,
  outputTokens: 40,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  totalTokens: 140,
};

function fold(events: AgentEvent[]) {
  return events.reduce(reduceAgentState, initialAgentState());
}

const toolTurn = assistantMessage(
  [{ type: 'tool-call', id: 'c1', name: 'write_file', args: { path: 'a.txt', content: 'x' } }],
  'tool-calls',
  { usage },
);

describe('toRunSnapshot', () => {
  it('shows a run that has not started', () => {
    expect(toRunSnapshot('run-1', 'chat #1', initialAgentState())).toEqual({
      id: 'run-1',
      label: 'chat #1',
      phase: 'starting',
      terminal: false,
      step: 0,
      tokens: { input: 0, output: 0, total: 0 },
      activeTools: [],
      pendingApprovals: [],
      pendingElicitations: [],
      streamingText: '',
      lastAnswer: '',
      prompt: '',
      retries: 0,
    });
  });

  it('shows the cost only when the run priced every call, with the tokens of its summary calls', () => {
    const priced = { ...usage, costUsd: 0.0002 };
    const answer = assistantMessage([{ type: 'text', text: 'Hi' }], 'stop', { usage: priced });
    const compaction: AgentEvent = {
      type: 'compaction',
      strategy: 'summary',
      tokensBefore: 9000,
      tokensAfter: 900,
      summarized: 12,
      usage: { ...usage, costUsd: 0.0001 },
    };
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      compaction,
      { type: 'message-end', message: answer },
    ]);
    expect(toRunSnapshot('run-1', 'x', state).tokens).toEqual({
      input: 200,
      output: 80,
      total: 280,
      costUsd: 0.0002 + 0.0001,
    });
    const unpriced = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'message-end', message: toolTurn },
    ]);
    expect(toRunSnapshot('run-1', 'x', unpriced).tokens).toEqual({ input: 100, output: 40, total: 140 });
  });

  it('shows the prompt, the step and the tail of the text being streamed', () => {
    const partial = assistantMessage([{ type: 'text', text: 'abcdefghij'.repeat(10) }]);
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      { type: 'message-start', message: userMessage('Explain cold observables') },
      { type: 'message-end', message: userMessage('Explain cold observables') },
      { type: 'message-start', message: partial },
      { type: 'message-update', message: partial, delta: { kind: 'text', text: 'j', index: 0 } },
    ]);
    const snapshot = toRunSnapshot('run-2', 'x', state, { streamTailChars: 11 });
    expect(snapshot.phase).toBe('llm-in-flight');
    expect(snapshot.step).toBe(1);
    expect(snapshot.prompt).toBe('Explain cold observables');
    expect(snapshot.streamingText).toBe('…abcdefghij');
  });

  it('shows tokens, running tools with their progress and pending approvals', () => {
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 2 },
      { type: 'message-end', message: toolTurn },
      { type: 'tool-start', toolCallId: 'c0', toolName: 'search_docs', args: { query: 'retry' } },
      {
        type: 'tool-update',
        toolCallId: 'c0',
        toolName: 'search_docs',
        kind: 'progress',
        progress: { done: 1, total: 4, label: 'shard 1' },
      },
      { type: 'tool-start', toolCallId: 'c1', toolName: 'write_file', args: { path: 'a.txt', content: 'x' } },
      {
        type: 'approval-request',
        toolCallId: 'c1',
        toolName: 'write_file',
        args: { path: 'a.txt', content: 'x' },
      },
    ]);
    const snapshot = toRunSnapshot('run-3', 'change #1', state);
    expect(snapshot).toMatchObject({
      phase: 'tool-executing',
      step: 2,
      tokens: { input: 100, output: 40, total: 140 },
      activeTools: [
        {
          toolCallId: 'c0',
          toolName: 'search_docs',
          args: '{"query":"retry"}',
          progress: { label: 'shard 1 (1/4)', ratio: 0.25 },
        },
        { toolCallId: 'c1', toolName: 'write_file', args: '{"path":"a.txt","content":"x"}' },
      ],
      pendingApprovals: [
        { toolCallId: 'c1', toolName: 'write_file', args: '{"path":"a.txt","content":"x"}' },
      ],
    });
    expect(snapshot.activeTools[1]).not.toHaveProperty('progress');
  });

  it('shows the last answer, the stop reason and no live calls once the run is over', () => {
    const answer = assistantMessage([{ type: 'text', text: 'All done.' }], 'stop', { usage });
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'turn-start', step: 1 },
      { type: 'message-end', message: answer },
      {
        type: 'agent-end',
        reason: 'completed',
        signal: { reason: 'completed', message: 'done' },
        messages: [answer],
        usage,
        steps: 1,
      },
    ]);
    const snapshot = toRunSnapshot('run-4', 'chat', terminate(state, 'done'));
    expect(snapshot).toMatchObject({
      phase: 'done',
      terminal: true,
      stopReason: 'completed',
      lastAnswer: 'All done.',
    });
    expect(snapshot.error).toBeUndefined();
  });

  it('names the error that ended a run', () => {
    const state = terminate(initialAgentState(), 'error', new TypeError('bad key'));
    expect(toRunSnapshot('run-5', 'x', state)).toMatchObject({ phase: 'error', error: 'TypeError: bad key' });
  });

  it('shows every argument of a call waiting for approval in full', () => {
    const path = './'.repeat(60) + '.vscode/tasks.json';
    const content = 'line\n'.repeat(400);
    const args = { path, content, oldText: 'a', options: { force: true } };
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'tool-start', toolCallId: 'c1', toolName: 'write', args },
      { type: 'approval-request', toolCallId: 'c1', toolName: 'write', args },
    ]);
    expect(toRunSnapshot('run-7', 'x', state).pendingApprovals[0]?.fields).toEqual([
      { name: 'path', value: path },
      { name: 'content', value: content },
      { name: 'oldText', value: 'a' },
      { name: 'options', value: '{\n  "force": true\n}' },
    ]);
  });

  it('bounds the text models and tools supply', () => {
    const huge = 'z'.repeat(200_000);
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'tool-start', toolCallId: 'c1', toolName: huge, args: { content: huge } },
      { type: 'tool-update', toolCallId: 'c1', toolName: huge, kind: 'progress', progress: { label: huge } },
      { type: 'approval-request', toolCallId: 'c1', toolName: huge, args: { content: huge } },
    ]);
    const snapshot = toRunSnapshot('run-8', huge, state);
    const tool = snapshot.activeTools[0];
    expect(tool?.progress?.label).toHaveLength(TEXT_LIMIT);
    expect(tool?.progress?.label.endsWith('…')).toBe(true);
    expect(tool?.toolName.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(snapshot.label.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(snapshot.pendingApprovals[0]?.toolName.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(snapshot.pendingApprovals[0]?.fields[0]?.value).toHaveLength(ARGUMENT_LIMIT);
    const failed = toRunSnapshot('run-9', 'x', terminate(initialAgentState(), 'error', new Error(huge)));
    expect(failed.error?.length).toBeLessThanOrEqual(TEXT_LIMIT);
    expect(describeProgress(huge)?.label).toHaveLength(TEXT_LIMIT);
    const line = describeEvent({ type: 'tool-start', toolCallId: 'c1', toolName: huge, args: {} });
    expect(line?.length).toBeLessThanOrEqual(TEXT_LIMIT);
  });

  it('is plain JSON', () => {
    const state = fold([
      { type: 'agent-start', runId: 'r' },
      { type: 'tool-start', toolCallId: 'c1', toolName: 't', args: { big: 1n } },
    ]);
    const snapshot = toRunSnapshot('run-6', 'x', state);
    expect(snapshot.activeTools[0]?.args).toBe('[unserializable arguments]');
    expect(JSON.parse(JSON.stringify(snapshot))).toEqual(snapshot);
  });
});

describe('summarizeArgs', () => {
  it('cuts long arguments and survives values JSON cannot write', () => {
    expect(summarizeArgs({ text: 'a'.repeat(50) }, 20)).toBe('{"text":"aaaaaaaaaa…');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(summarizeArgs(cyclic)).toBe('[unserializable arguments]');
    expect(summarizeArgs(undefined)).toBe('undefined');
  });
});

describe('describeProgress', () => {
  it.each([
    [0.5, { label: '50%', ratio: 0.5 }],
    [42, { label: '42' }],
    ['compiling', { label: 'compiling' }],
    [
      { current: 3, total: 4 },
      { label: '3/4', ratio: 0.75 },
    ],
    [
      { percent: 20, message: 'uploading' },
      { label: 'uploading', ratio: 0.2 },
    ],
    [
      { done: 9, total: 4 },
      { label: '9/4', ratio: 1 },
    ],
    [{ phase: 'x' }, { label: '{"phase":"x"}' }],
  ])('reads %j', (progress, view) => {
    expect(describeProgress(progress)).toEqual(view);
  });

  it('is undefined without progress', () => {
    expect(describeProgress(undefined)).toBeUndefined();
    expect(describeProgress(null)).toBeUndefined();
  });
});
