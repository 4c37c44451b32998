import type { AgentEvent, AgentMessage } from '@rxagent/core';
import type { RunResult } from '@rxagent/core/streams';
import { DurableRunSpecError, type DurableRunSpec } from '@rxagent/durable';
import { Pool } from 'pg';
import { appendedLines, durableTestbed, watchToEnd } from './durable-test-kit.test.js';

// What works in runAgent works in a durable run, named in its spec (the workers register the
// functions), or is refused at startRun with a typed error naming it.

jest.setTimeout(120_000);

const bed = durableTestbed({ pollIntervalMs: 50 });

beforeAll(async () => {
  await bed.worker('cap-a', {});
});

async function run(
  spec: DurableRunSpec & { runId: string },
  onEvent: (event: AgentEvent, id: string) => void | Promise<void> = () => undefined,
): Promise<{ events: AgentEvent[]; result: RunResult }> {
  const id = await bed.runs.startRun({ prompt: `Go (${spec.runId}).`, ...spec });
  const events = await watchToEnd(bed.runs, id, (e) => {
    void onEvent(e, id);
  });
  return { events, result: await bed.runs.runResult(id) };
}

const roles = (messages: readonly AgentMessage[]) =>
  messages.map((m) =>
    m.role === 'user' ? `user:${typeof m.content === 'string' ? m.content : '…'}` : m.role,
  );

/** The keys of a run's guardrail and context records (its model calls' records left out). */
async function recordKeys(runId: string): Promise<string[]> {
  const pool = new Pool({ connectionString: bed.pg.url });
  try {
    const { rows } = await pool.query<{ key: string }>(
      "SELECT key FROM rxagent_durable.records WHERE run_id = $1 AND key <> 'messages-taken' AND key NOT LIKE 'model:%' ORDER BY key",
      [runId],
    );
    return rows.map((r) => r.key);
  } finally {
    await pool.end();
  }
}

describe('steering and follow-ups are durable messages', () => {
  it('takes steering at the end of the step and a follow-up when the run would stop', async () => {
    const { result } = await run(
      { runId: 'steer-1', model: 'plan-approval', tools: ['keyed_append', 'guarded_append'] },
      async (e, id) => {
        // The run waits in call_2's approval: both messages are there before its step ends.
        if (e.type !== 'approval-request') return;
        expect(await bed.runs.steer(id, 'Also log the time.')).toBe(true);
        expect(await bed.runs.followUp(id, 'Now summarize.')).toBe(true);
        await bed.runs.approve(id, e.toolCallId);
      },
    );
    expect(result.reason).toBe('completed');
    expect(roles(result.messages)).toEqual([
      'user:Go (steer-1).',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'user:Also log the time.',
      'assistant',
      'tool',
      'assistant',
      'user:Now summarize.',
      'assistant',
    ]);
    // Ended: nothing more is taken. (DBOS marks the workflow done just after the run's last
    // event: wait for that, as a client that saw the result and then steers would.)
    while ((await bed.runs.status('steer-1')) === 'PENDING') await new Promise((r) => setTimeout(r, 20));
    await expect(bed.runs.steer('steer-1', 'Too late.')).resolves.toBe(false);
    await expect(bed.runs.followUp('no-such-run', 'Hello?')).resolves.toBe(false);
  });
});

describe('named capabilities', () => {
  it('trips an input guardrail registered by name; the check is recorded', async () => {
    const { result } = await run({
      runId: 'guard-in',
      model: 'plan-keyed',
      tools: ['keyed_append'],
      inputGuardrails: ['no-secrets'],
      prompt: 'My password is hunter2.',
    });
    expect(result.reason).toBe('guardrail');
    expect(await recordKeys('guard-in')).toEqual(['guard:input:no-secrets:1']);
  });

  it('denies a call with a tool guardrail and stops on an output guardrail', async () => {
    const denied = await run(
      { runId: 'guard-tool', model: 'pay-big', tools: ['pay'], toolGuardrails: ['cap-cents'] },
      (e, id) => {
        if (e.type === 'approval-request') void bed.runs.approve(id, e.toolCallId);
      },
    );
    expect(denied.result.reason).toBe('completed');
    const result = denied.result.messages.find((m) => m.role === 'tool');
    expect(JSON.stringify(result)).toContain('Over the 1000-cent cap.');
    expect(appendedLines(`${bed.file}.charges`).filter((l) => l.startsWith('guard-tool:'))).toEqual([]);
    expect(await recordKeys('guard-tool')).toEqual(['guard:before:cap-cents:call_1']);

    const shouting = await run({ runId: 'guard-out', model: 'shouting', outputGuardrails: ['no-shouting'] });
    expect(shouting.result.reason).toBe('guardrail');
  });

  it('gives structured output from a JSON Schema in the spec and from a named schema', async () => {
    const inline = await run({
      runId: 'output-inline',
      model: 'weather',
      outputMode: 'native',
      output: {
        jsonSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, tempC: { type: 'number' } },
          required: ['city', 'tempC'],
        },
      },
    });
    expect(inline.events.at(-1)).toMatchObject({
      type: 'agent-end',
      reason: 'completed',
      output: { city: 'Paris', tempC: 21 },
    });
    const named = await run({
      runId: 'output-named',
      model: 'weather',
      outputMode: 'native',
      output: 'weather',
    });
    expect(named.events.at(-1)).toMatchObject({ type: 'agent-end', output: { city: 'Paris', tempC: 21 } });
  });

  it('compacts with a named context manager, each projection a recorded step', async () => {
    const { events, result } = await run({
      runId: 'context-1',
      model: 'plan-keyed',
      tools: ['keyed_append'],
      contextManager: 'trim',
    });
    expect(result.reason).toBe('completed');
    expect(events.filter((e) => e.type === 'compaction').length).toBeGreaterThan(0);
    expect(await recordKeys('context-1')).toEqual([
      'context:project:1',
      'context:project:2',
      'context:project:3',
      'context:project:4',
    ]);
  });

  it('runs a named pipeline, and stops on a token budget', async () => {
    const piped = await run({
      runId: 'pipeline-1',
      model: 'plan-keyed',
      tools: ['keyed_append'],
      pipeline: 'plain',
    });
    expect(piped.result.reason).toBe('completed');
    // Each model call of plan-keyed spends 110 tokens or so: the budget stops it after the third.
    const budget = await run({
      runId: 'budget-1',
      model: 'plan-keyed',
      tools: ['keyed_append'],
      budget: { maxTokens: 250 },
    });
    expect(budget.result.reason).toBe('token-limit');
    expect(
      budget.events.filter((e) => e.type === 'message-end' && e.message.role === 'assistant'),
    ).toHaveLength(3);
  });
});

describe('refused at startRun with DurableRunSpecError naming what', () => {
  const refused = async (spec: Record<string, unknown>, pattern: RegExp) => {
    const error = await bed.runs.startRun({ model: 'plan', prompt: 'Hi', ...spec }).catch((e: unknown) => e);
    expect(DurableRunSpecError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(pattern);
  };

  it.each([
    [{ stopWhen: 'x' }, /"stopWhen".*budget/],
    [{ steering$: {} }, /"steering\$".*runs\.steer/],
    [{ approver: 'x' }, /"approver".*runs\.approve/],
    [{ steeringMode: 'interrupt' }, /steeringMode "interrupt".*queue mode, steeringMode 'after-turn'/],
    [{ inputGuardrails: ['nope'] }, /input guardrail "nope".*registered: "no-secrets"/],
    [{ toolGuardrails: ['no-secrets'] }, /tool guardrail "no-secrets".*registered: "cap-cents"/],
    [{ contextManager: 'nope' }, /context manager "nope"/],
    [{ pipeline: 'plain', contextManager: 'trim' }, /named pipeline cannot also name a contextManager/],
    [{ output: 'nope' }, /output schema "nope"/],
    [{ output: { jsonSchema: 'x' } }, /output must be/],
    [{ budget: { maxTokens: -1 } }, /budget must be/],
    [{ whatever: 1 }, /no field "whatever"/],
  ])('%j', async (spec, pattern) => refused(spec, pattern));
});
