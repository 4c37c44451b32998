import { z } from 'zod';
import { firstValueFrom, filter, map, throwError, timer } from 'rxjs';
import { assistantMessage, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentBusyError, AgentConfigError, InvalidTranscriptError } from '../errors/agent-errors.js';
import { AuthError } from '../errors/provider-errors.js';
import type { AgentEvent } from '../events/agent-event.js';
import { ABORT_MARKER_TEXT } from '../messages/abort-marker.js';
import { assistantText, contentText } from '../messages/message-helpers.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage, ChatModel } from '../index.js';
import { tool } from '../tools/tool.js';
import { Agent } from './agent.js';

const sleep = tool({
  name: 'sleep',
  description: 'sleep',
  parameters: z.object({ ms: z.number() }),
  concurrencySafe: false,
  execute: ({ ms }) => timer(ms).pipe(map(() => `slept ${ms}`)),
});
const roles = (messages: readonly AgentMessage[]) =>
  messages.map((m) =>
    m.role === 'tool' ? `tool:${contentText(m)}` : m.role === 'user' ? `user:${contentText(m)}` : m.role,
  );

describe('Agent', () => {
  it('keeps the transcript across prompts, steers mid-tool, aborts mid-stream and follows up', async () => {
    const model = scriptedModel(
      [
        textTurn('Hello!'),
        toolCallTurn([
          { name: 'sleep', args: { ms: 30 }, id: 'a' },
          { name: 'sleep', args: { ms: 30 }, id: 'b' },
        ]),
        textTurn('OK, using the cache.'),
        textTurn('This is a long answer that will be cut', { chunks: 2 }),
        textTurn('Short answer.'),
        textTurn('Summary.'),
      ],
      { latency: 2 },
    );
    const agent = new Agent({ model, tools: [sleep], system: 'Be brief.' });

    // 1. A first prompt.
    const first = await agent.prompt('hi');
    expect(first).toMatchObject({ reason: 'completed', steps: 1 });
    expect(roles(agent.messages)).toEqual(['user:hi', 'assistant']);

    // 2. A steer while the first tool runs: the second call is skipped, the message comes next.
    const stop = agent.subscribe((event) => {
      if (event.type === 'tool-start' && event.toolCallId === 'a')
        expect(agent.steer('Use the cache instead.')).toBe('steered');
    });
    await agent.prompt('look it up');
    stop();
    expect(roles(agent.messages)).toEqual([
      'user:hi',
      'assistant',
      'user:look it up',
      'assistant',
      'tool:slept 30',
      'tool:Skipped due to queued user message.',
      'user:Use the cache instead.',
      'assistant',
    ]);
    expect(model.requests[2]?.messages).toHaveLength(7);

    // 3. An abort mid-stream: the partial answer is kept with the marker; the next prompt sees it.
    const stopAbort = agent.subscribe((event) => {
      if (event.type === 'message-update') agent.abort();
    });
    const aborted = await agent.prompt('explain');
    stopAbort();
    expect(aborted.reason).toBe('user-requested');
    const marker = agent.messages[agent.messages.length - 1];
    expect(marker).toMatchObject({ role: 'assistant', stopReason: 'aborted' });
    expect(assistantText(marker)).toBe(`Th${ABORT_MARKER_TEXT}`);
    expect(validateMessageSequence(agent.messages)).toEqual([]);

    // 4. A follow-up queued during a run is delivered when the run would stop.
    const stopFollow = agent.subscribe((event) => {
      if (event.type === 'turn-start' && event.step === 1) agent.followUp('Now summarize.');
    });
    const last = await agent.prompt('again, shortly');
    stopFollow();
    expect(last).toMatchObject({ reason: 'completed', steps: 2 });
    expect(roles(agent.messages).slice(-4)).toEqual([
      'user:again, shortly',
      'assistant',
      'user:Now summarize.',
      'assistant',
    ]);
    // The model saw the abort marker.
    expect(
      model.requests[4]?.messages.some((m) => m.role === 'assistant' && m.stopReason === 'aborted'),
    ).toBe(true);
    expect(agent.state$.value.phase).toBe('done');
  });

  it('rejects a prompt with AgentBusyError while a run is active, and waits for idle', async () => {
    const agent = new Agent({ model: scriptedModel([textTurn('a')], { latency: 5 }) });
    const running = agent.prompt('one');
    await expect(agent.prompt('two')).rejects.toBeInstanceOf(AgentBusyError);
    await expect(agent.continue()).rejects.toBeInstanceOf(AgentBusyError);
    expect(agent.isRunning).toBe(true);
    await agent.waitForIdle();
    expect(agent.isRunning).toBe(false);
    await running;
  });

  it('aborts silently: no marker, the partial answer dropped', async () => {
    const agent = new Agent({
      model: scriptedModel([textTurn('partial answer', { chunks: 2 })], { latency: 2 }),
    });
    agent.subscribe((e) => e.type === 'message-update' && agent.abort({ silent: true }));
    const result = await agent.prompt('hi');
    expect(result.reason).toBe('user-requested');
    expect(roles(agent.messages)).toEqual(['user:hi']);
    expect(agent.state$.value.phase).toBe('cancelled');
  });

  it('approves and rejects pending calls, shown in state.pendingApprovals', async () => {
    const bash = tool({
      name: 'bash',
      description: 'bash',
      parameters: z.object({ command: z.string() }),
      needsApproval: true,
      execute: ({ command }) => `ran ${command}`,
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'bash', args: { command: 'ls' }, id: 'ok' },
        { name: 'bash', args: { command: 'rm -rf /' }, id: 'no' },
      ]),
      textTurn('done'),
    ]);
    const agent = new Agent({ model, tools: [bash] });
    const seen: string[] = [];
    agent.state$.subscribe((s) => {
      const ids = s.pendingApprovals.map((a) => a.toolCallId).join(',');
      if (ids && seen.at(-1) !== ids) seen.push(ids);
    });
    agent.subscribe((event) => {
      if (event.type !== 'approval-request') return;
      setTimeout(() =>
        event.toolCallId === 'ok' ? agent.approve('ok') : agent.reject('no', 'Not on my machine.'),
      );
    });
    await agent.prompt('clean up');
    expect(seen).toEqual(['ok', 'ok,no', 'no']);
    expect(roles(agent.messages).filter((r) => r.startsWith('tool'))).toEqual([
      'tool:ran ls',
      'tool:Not on my machine.',
    ]);
    expect(agent.approve('unknown')).toBe(false);
  });

  it('continues: from a user/tool tail directly, from an assistant tail with a queued message', async () => {
    const model = scriptedModel([textTurn('a'), textTurn('b'), textTurn('c')]);
    const agent = new Agent({ model });
    await expect(agent.continue()).rejects.toThrow('Cannot continue an empty transcript');
    agent.importMessages([{ role: 'user', content: 'pending question', timestamp: 0 }]);
    await agent.continue();
    expect(roles(agent.messages)).toEqual(['user:pending question', 'assistant']);
    await expect(agent.continue()).rejects.toBeInstanceOf(AgentConfigError);
    expect(agent.steer('and another')).toBe('queued');
    await agent.continue();
    expect(roles(agent.messages)).toEqual([
      'user:pending question',
      'assistant',
      'user:and another',
      'assistant',
    ]);
    expect(agent.inject('resume please')).toBe('resumed');
    await agent.waitForIdle();
    expect(roles(agent.messages).slice(-2)).toEqual(['user:resume please', 'assistant']);
  });

  it('runs listeners in order after the fold and isolates a throwing one', async () => {
    const errors: string[] = [];
    const agent = new Agent({
      model: scriptedModel([textTurn('x')]),
      onError: (_e, context) => errors.push(context),
    });
    const order: string[] = [];
    agent.subscribe((event, state) => {
      if (event.type === 'message-end' && event.message.role === 'assistant')
        order.push(`first:${state.messages.length}`);
    });
    agent.subscribe((event) => {
      if (event.type === 'turn-start') throw new Error('listener bug');
    });
    agent.subscribe((event) => {
      if (event.type === 'message-end' && event.message.role === 'assistant') order.push('third');
    });
    const events: AgentEvent[] = [];
    agent.events$.subscribe((e) => events.push(e));
    const result = await agent.prompt('hi');
    expect(result.reason).toBe('completed');
    expect(order).toEqual(['first:2', 'third']);
    expect(errors).toEqual(['A listener threw on "turn-start" and was skipped']);
    expect(events.at(-1)?.type).toBe('agent-end');
  });

  it('exports and imports transcripts; a bad one is a typed error and the old one is kept', async () => {
    const agent = new Agent({ model: scriptedModel([textTurn('x')]) });
    await agent.prompt('hi');
    const saved = JSON.stringify(agent.exportMessages());
    const other = new Agent({ model: scriptedModel([textTurn('y')]) });
    other.importMessages(saved);
    expect(other.messages).toEqual(agent.messages);
    const broken = [
      { role: 'user', content: 'q', timestamp: 0 },
      assistantMessage([{ type: 'tool-call', id: 'c', name: 't', args: {} }]),
    ];
    expect(() => other.importMessages(broken)).toThrow(InvalidTranscriptError);
    expect(() => other.importMessages('{not json')).toThrow(/not valid JSON/);
    expect(() => other.importMessages('{"a":1}')).toThrow(/array of messages/);
    expect(other.messages).toEqual(agent.messages);
  });

  it('keeps a valid transcript after a failure, and uses setModel / setTools / setSystem for the next run', async () => {
    const failing: ChatModel = {
      provider: 'x',
      modelId: 'x',
      stream: () => throwError(() => new AuthError('bad key')),
    };
    const agent = new Agent({ model: failing, onError: () => undefined });
    await expect(agent.prompt('hi')).rejects.toBeInstanceOf(AuthError);
    expect(agent.state$.value.phase).toBe('error');
    expect(validateMessageSequence(agent.messages)).toEqual([]);
    const model = scriptedModel([textTurn('recovered')]);
    agent.setModel(model);
    agent.setSystem('New system');
    agent.setTools([sleep]);
    await agent.prompt('again');
    expect(model.requests[0]?.system).toBe('New system');
    expect(model.requests[0]?.tools?.map((t) => t.name)).toEqual(['sleep']);
    expect(roles(agent.messages)).toEqual(['user:hi', 'user:again', 'assistant']);
  });

  it('resets the transcript, the queues and the usage', async () => {
    const agent = new Agent({
      model: scriptedModel([textTurn('x', { usage: { inputTokens: 5, outputTokens: 2 } }), textTurn('y')]),
    });
    await agent.prompt('hi');
    expect(agent.usage.totalTokens).toBe(7);
    agent.followUp('later');
    agent.reset();
    expect(agent.messages).toEqual([]);
    await agent.prompt('fresh');
    expect(roles(agent.messages)).toEqual(['user:fresh', 'assistant']);
  });

  it('exposes the state synchronously and as a stream', async () => {
    const agent = new Agent({ model: scriptedModel([textTurn('x')], { latency: 2 }) });
    expect(agent.state$.value.phase).toBe('starting');
    const done = firstValueFrom(agent.state$.pipe(filter((s) => s.phase === 'done')));
    await agent.prompt('hi');
    expect((await done).messages).toHaveLength(2);
  });
});
