import { AgentBusyError, type AgentMessage } from '@rxagent/core';
import { DurableAgent, type DurableAgentConfig } from '@rxagent/durable';
import { filter, firstValueFrom } from 'rxjs';
import { appendedLines, durableTestbed, withoutTimes } from './durable-test-kit.test.js';

// DurableAgent: the Agent API over durable runs, its conversation in PostgreSQL. Switching
// `new Agent(…)` for `new DurableAgent(…)` keeps conversations across the death of any process.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });
afterEach(() => bed.stopWorkers());

const agents: DurableAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.dispose()));
});

function agent(conversationId: string, extra: Partial<DurableAgentConfig> = {}): DurableAgent {
  const a = new DurableAgent({
    databaseUrl: bed.pg.url,
    conversationId,
    model: 'plan-approval',
    tools: ['keyed_append', 'guarded_append'],
    client: { pollIntervalMs: 50 },
    ...extra,
  });
  agents.push(a);
  return a;
}

const roles = (messages: readonly AgentMessage[]) =>
  messages.map((m) => (m.role === 'user' && typeof m.content === 'string' ? m.content : m.role));

it('keeps a conversation across runs, and another agent on it (another process) loads the same transcript', async () => {
  await bed.worker('agent-a', {});
  const first = agent('conv-1', { model: 'plan-keyed', tools: ['keyed_append'] });
  const one = await first.prompt('Append the lines (conv-1).');
  expect(one.reason).toBe('completed');
  expect(first.messages).toHaveLength(8);
  const two = await first.prompt('Once more.');
  expect(two.reason).toBe('completed');
  // The second run saw the first: the model counted its three results and answered at once.
  expect(roles(two.messages)).toEqual(['Once more.', 'assistant']);
  expect(first.messages).toHaveLength(10);
  expect(await first.approve('call_1')).toBe(false);
  const second = agent('conv-1', { model: 'plan-keyed', tools: ['keyed_append'] });
  await second.loadSession();
  expect(second.isRunning).toBe(false);
  expect(withoutTimes(second.exportMessages())).toEqual(withoutTimes(first.exportMessages()));
});

it('survives the death of the prompting process and of the worker: a new agent attaches and decides the approval', async () => {
  const a = await bed.worker('agent-crash-a', {});
  const first = agent('conv-2');
  const abandoned = first.prompt('Append the lines (conv-2).');
  abandoned.catch(() => undefined);
  await firstValueFrom(first.events$.pipe(filter((e) => e.type === 'approval-request')));
  // The process that prompted is gone (nothing of it watches or decides any more)…
  await first.dispose();
  // …and so is the worker that ran the conversation.
  await bed.worker('agent-crash-b', {});
  await a.crash();

  const second = agent('conv-2');
  await second.loadSession();
  expect(second.isRunning).toBe(true);
  await expect(second.prompt('Not now.')).rejects.toBeInstanceOf(AgentBusyError);
  const waiting = await firstValueFrom(second.state$.pipe(filter((s) => s.pendingApprovals.length > 0)));
  expect(waiting.pendingApprovals.map((p) => p.toolCallId)).toEqual(['call_2']);
  expect(await second.approve('call_2')).toBe(true);
  await second.waitForIdle();
  expect(second.isRunning).toBe(false);
  expect(roles(second.messages)).toEqual([
    'Append the lines (conv-2).',
    'assistant',
    'tool',
    'assistant',
    'tool',
    'assistant',
    'tool',
    'assistant',
  ]);
  const effects = appendedLines(bed.file).filter((l) => l.startsWith('conv-2'));
  expect(effects.map((l) => /call_\d+/.exec(l)?.[0])).toEqual(['call_1', 'call_2', 'call_3']);
  // A third agent, later, reads the transcript the second one saved.
  const third = agent('conv-2');
  await third.loadSession();
  expect(withoutTimes(third.exportMessages())).toEqual(withoutTimes(second.exportMessages()));
});

it('steers the run going on and sends a follow-up', async () => {
  await bed.worker('agent-steer', {});
  const a = agent('conv-3');
  const outcomes: Promise<unknown>[] = [];
  a.events$.subscribe((e) => {
    if (e.type !== 'approval-request') return;
    outcomes.push(
      (async () => [
        await a.steer('Also log the time.'),
        await a.followUp('Now summarize.'),
        await a.approve(e.toolCallId),
      ])(),
    );
  });
  const result = await a.prompt('Append the lines (conv-3).');
  expect(await Promise.all(outcomes)).toEqual([['steered', 'queued', true]]);
  expect(result.reason).toBe('completed');
  expect(roles(a.messages)).toContain('Also log the time.');
  expect(roles(a.messages).slice(-2)).toEqual(['Now summarize.', 'assistant']);
});
