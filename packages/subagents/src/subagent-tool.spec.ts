import {
  AuthError,
  initialAgentState,
  reduceAgentState,
  runAgent,
  tool,
  withState,
  type AgentEvent,
} from '@rxagent/core';
import { subrunLine } from './subrun-line.js';
import type { AgentEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { subagentTool } from './subagent-tool.js';
import { progressOf, resultText, toolEnds } from './test-helpers.test.js';

const lookup = () => {
  const calls: string[] = [];
  const t = tool({
    name: 'lookup',
    description: 'Look something up',
    parameters: z.object({ q: z.string() }),
    execute: ({ q }) => {
      calls.push(q);
      return `found ${q}`;
    },
  });
  return { tool: t, calls };
};

describe('subagentTool, single mode', () => {
  it('runs the sub-agent on its own transcript and returns its answer to the parent', async () => {
    const scout = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { q: 'entry point' } }),
      textTurn('The entry point is src/main.ts.'),
    ]);
    const { tool: lookupTool, calls } = lookup();
    const subagent = subagentTool({
      agents: {
        scout: { description: 'Explores', model: scout, system: 'You are a scout.', tools: [lookupTool] },
      },
    });
    const parent = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'Find the entry point.' } }),
      textTurn('It is src/main.ts.'),
    ]);
    const events = await collectEvents(
      runAgent({ model: parent, tools: [subagent], prompt: 'Where does it start?' }),
    );

    expect(resultText(toolEnds(events)[0])).toBe('The entry point is src/main.ts.');
    expect(calls).toEqual(['entry point']);
    // Its own transcript: the task only, with its own system prompt, nothing of the parent's.
    expect(scout.requests[0]?.system).toBe('You are a scout.');
    expect(scout.requests[0]?.messages).toEqual([
      expect.objectContaining({ role: 'user', content: 'Find the entry point.' }),
    ]);
    // The parent's model reads the answer as the tool result.
    const last = parent.requests[1]?.messages.at(-1);
    expect(last).toMatchObject({
      role: 'tool',
      isError: false,
      content: [{ type: 'text', text: 'The entry point is src/main.ts.' }],
    });
    expect((events.at(-1) as AgentEndEvent).reason).toBe('completed');
  });

  it('adds the sub-run usage (tokens and cost) to the parent run, its state and its transcript', async () => {
    const scout = scriptedModel([
      textTurn('Done.', { usage: { inputTokens: 100, outputTokens: 20, costUsd: 0.01 } }),
    ]);
    const subagent = subagentTool({ agents: { scout: { description: 'Explores', model: scout } } });
    const parent = scriptedModel([
      toolCallTurn(
        { name: 'subagent', args: { agent: 'scout', task: 'Go.' } },
        { usage: { inputTokens: 10, outputTokens: 5, costUsd: 0.001 } },
      ),
      textTurn('Ok.', { usage: { inputTokens: 30, outputTokens: 2, costUsd: 0.002 } }),
    ]);
    const { events$, state$ } = withState(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const events = await lastValueFrom(events$.pipe(toArray()));
    const end = events.at(-1) as AgentEndEvent;

    expect(end.usage).toMatchObject({ inputTokens: 140, outputTokens: 27, totalTokens: 167 });
    expect(end.usage.costUsd).toBeCloseTo(0.013);
    expect(state$.value.usage).toEqual(end.usage);
    // The sub-run's spending reached the parent as it happened (its `subrun` events), not on the
    // result: the transcript's tool message carries none, so nothing is counted twice.
    const toolMessage = end.messages.find((m) => m.role === 'tool');
    expect(toolMessage?.role === 'tool' && toolMessage.usage).toBeFalsy();
    expect(Object.values(state$.value.subruns)).toEqual([
      expect.objectContaining({
        path: ['scout'],
        phase: 'idle',
        usage: expect.objectContaining({ totalTokens: 120 }),
      }),
    ]);
  });

  it("puts the sub-run's events on the parent's stream: agent, step, tool, one-line summary, tokens", async () => {
    const scout = scriptedModel([
      toolCallTurn({ name: 'lookup', args: { q: 'x' } }, { usage: { inputTokens: 7, outputTokens: 3 } }),
      textTurn('Answer\nwith two lines.', { usage: { inputTokens: 20, outputTokens: 4 } }),
    ]);
    const subagent = subagentTool({
      agents: { scout: { description: 'Explores', model: scout, tools: [lookup().tool] } },
    });
    const parent = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'Go.' } }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const progress = progressOf(events);

    expect(progress.map((p) => p.kind)).toEqual([
      'start',
      'turn',
      'tool-start',
      'tool-end',
      'turn',
      'message',
      'end',
    ]);
    expect(progress.every((p) => p.agent === 'scout' && p.path.join() === 'scout')).toBe(true);
    expect(progress[2]).toMatchObject({ kind: 'tool-start', tool: 'lookup' });
    // Step and tokens are the state fold's reading of the same events.
    const subrun = events.find((e) => e.type === 'subrun');
    const runId = subrun?.type === 'subrun' ? (subrun.path[0]?.runId ?? '') : '';
    let state = initialAgentState();
    const lines: string[] = [];
    for (const e of events) {
      state = reduceAgentState(state, e);
      if (e.type !== 'subrun') continue;
      const line = subrunLine(e);
      if (line)
        lines.push(
          `${line} [step ${state.subruns[runId]?.step}, ${state.subruns[runId]?.usage.totalTokens} tokens]`,
        );
    }
    expect(lines).toContain('scout → lookup {"q":"x"} [step 1, 10 tokens]');
    expect(lines).toContain('scout: Answer with two lines. [step 2, 34 tokens]');
    expect(lines.at(-1)).toBe('scout done (completed, 2 steps, 34 tokens) [step 2, 34 tokens]');
    // Every sub-run event belongs to the parent's subagent call and is plain JSON.
    const subruns = events.filter((e) => e.type === 'subrun');
    expect(new Set(subruns.map((e) => (e as { toolCallId: string }).toolCallId)).size).toBe(1);
    expect(JSON.parse(JSON.stringify(subruns))).toEqual(subruns);
  });

  it('turns a failing sub-run into an error result the parent model reads, and the parent goes on', async () => {
    const scout = scriptedModel([
      { events: [], error: new AuthError('Invalid API key (sk-…redacted)', { status: 401 }) },
    ]);
    const subagent = subagentTool({ agents: { scout: { description: 'Explores', model: scout } } });
    const parent = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'Go.' } }),
      textTurn('The scout failed; I will answer myself.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const end = toolEnds(events)[0];

    expect(end?.isError).toBe(true);
    expect(resultText(end)).toMatch(/^Sub-agent "scout" failed: Invalid API key/);
    // The sub-run never ended by itself: the fold marks it failed with its call.
    const state = events.reduce(reduceAgentState, initialAgentState());
    expect(Object.values(state.subruns).map((s) => s.phase)).toEqual(['error']);
    expect((events.at(-1) as AgentEndEvent).reason).toBe('completed');
  });

  it('refuses unknown agents and mixed modes with a reason the model can act on', async () => {
    const subagent = subagentTool({
      agents: { scout: { description: 'Explores', model: scriptedModel([]) } },
    });
    const parent = scriptedModel([
      toolCallTurn([
        { name: 'subagent', args: { agent: 'wizard', task: 'Go.' } },
        { name: 'subagent', args: { agent: 'scout', task: 'Go.', chain: [] } },
      ]),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const [unknown, mixed] = toolEnds(events).sort((a, b) => a.toolCallId.localeCompare(b.toolCallId));
    expect(resultText(unknown)).toBe('Unknown sub-agent "wizard". Available: scout.');
    expect(resultText(mixed)).toMatch(/^Give exactly one mode/);
  });
});

describe('subagentTool, parallel and chain modes', () => {
  it('parallel: runs every task and returns the answers in task order, usage summed', async () => {
    const a = scriptedModel([textTurn('A says hi.', { usage: { inputTokens: 1, outputTokens: 1 } })]);
    const b = scriptedModel([textTurn('B says hi.', { usage: { inputTokens: 2, outputTokens: 2 } })]);
    const subagent = subagentTool({
      agents: { a: { description: 'A', model: a }, b: { description: 'B', model: b } },
    });
    const parent = scriptedModel([
      toolCallTurn({
        name: 'subagent',
        args: {
          tasks: [
            { agent: 'b', task: 'Hi B' },
            { agent: 'a', task: 'Hi A' },
          ],
        },
      }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const end = toolEnds(events)[0];

    expect(resultText(end)).toBe('[1/2] b (done): Hi B\nB says hi.\n\n[2/2] a (done): Hi A\nA says hi.');
    expect((events.at(-1) as AgentEndEvent).usage.totalTokens).toBeGreaterThanOrEqual(6);
    const state = events.reduce(reduceAgentState, initialAgentState());
    expect(Object.values(state.subruns).reduce((n, s) => n + s.usage.totalTokens, 0)).toBe(6);
    expect(new Set(progressOf(events).map((p) => p.index))).toEqual(new Set([0, 1]));
  });

  it('parallel: one failure is reported in place; the call is an error only when all fail', async () => {
    const ok = scriptedModel([textTurn('Fine.')]);
    const broken = scriptedModel([]);
    const subagent = subagentTool({
      agents: { ok: { description: 'ok', model: ok }, broken: { description: 'x', model: broken } },
    });
    const parent = scriptedModel([
      toolCallTurn({
        name: 'subagent',
        args: {
          tasks: [
            { agent: 'broken', task: 'T1' },
            { agent: 'ok', task: 'T2' },
          ],
        },
      }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const end = toolEnds(events)[0];
    expect(end?.isError).toBe(false);
    expect(resultText(end)).toMatch(
      /^\[1\/2\] broken \(failed\): T1\nSub-agent "broken" failed: .*\n\n\[2\/2\] ok \(done\): T2\nFine\.$/s,
    );
  });

  it('chain: runs in order, each task seeing the previous answer as {previous}', async () => {
    const scout = scriptedModel([textTurn('three files: a, b, c')]);
    const writer = scriptedModel([textTurn('Summary: a, b and c.')]);
    const subagent = subagentTool({
      agents: {
        scout: { description: 'Explores', model: scout },
        writer: { description: 'Writes', model: writer },
      },
    });
    const parent = scriptedModel([
      toolCallTurn({
        name: 'subagent',
        args: {
          chain: [
            { agent: 'scout', task: 'List files' },
            { agent: 'writer', task: 'Summarise: {previous}' },
          ],
        },
      }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));

    expect(writer.requests[0]?.messages[0]).toMatchObject({ content: 'Summarise: three files: a, b, c' });
    expect(resultText(toolEnds(events)[0])).toBe('Summary: a, b and c.');
    expect(
      progressOf(events)
        .filter((p) => p.kind === 'start')
        .map((p) => p.agent),
    ).toEqual(['scout', 'writer']);
  });

  it('chain: stops at the first failing step and says where', async () => {
    const writer = scriptedModel([textTurn('never')]);
    const subagent = subagentTool({
      agents: {
        scout: { description: 'x', model: scriptedModel([]) },
        writer: { description: 'y', model: writer },
      },
    });
    const parent = scriptedModel([
      toolCallTurn({
        name: 'subagent',
        args: {
          chain: [
            { agent: 'scout', task: 'A' },
            { agent: 'writer', task: '{previous}' },
          ],
        },
      }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    expect(resultText(toolEnds(events)[0])).toMatch(
      /^The chain stopped at step 1\/2 \(scout\): Sub-agent "scout" failed/,
    );
    expect(writer.calls).toBe(0);
  });
});

describe('subagentTool limits', () => {
  const nested = (maxDepth: number) => {
    const inner = scriptedModel([textTurn('inner answer')]);
    const agents: Parameters<typeof subagentTool>[0]['agents'] = {
      inner: { description: 'Leaf', model: inner },
    };
    const subagent = subagentTool({ agents, maxDepth });
    const middle = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'inner', task: 'Deeper' } }),
      (request) => textTurn(`middle saw: ${JSON.stringify(request.messages.at(-1))}`),
    ]);
    agents.middle = { description: 'Delegates', model: middle, tools: [subagent] };
    const parent = scriptedModel([
      toolCallTurn({ name: 'subagent', args: { agent: 'middle', task: 'Go deep' } }),
      textTurn('Ok.'),
    ]);
    return { inner, middle, run$: runAgent({ model: parent, tools: [subagent], prompt: 'Go' }) };
  };

  it('refuses a sub-agent that calls the subagent tool beyond maxDepth (default 1)', async () => {
    const { inner, middle, run$ } = nested(1);
    const events = await collectEvents(run$);
    expect(inner.calls).toBe(0);
    const seen = middle.requests[1]?.messages.at(-1);
    expect(seen).toMatchObject({ role: 'tool', isError: true });
    expect(JSON.stringify(seen)).toContain('sub-agents may nest 1 level(s) deep (maxDepth)');
    expect((events.at(-1) as AgentEndEvent).reason).toBe('completed');
  });

  it('lets sub-agents nest to maxDepth, relaying nested progress with its path', async () => {
    const { inner, run$ } = nested(2);
    const events = await collectEvents(run$);
    expect(inner.calls).toBe(1);
    const paths = progressOf(events).map((p) => p.path.join('>'));
    expect(paths).toContain('middle>inner');
    expect(resultText(toolEnds(events)[0])).toContain('inner answer');
  });

  it('caps the sub-runs of one top-level run (maxSubRuns)', async () => {
    const a = scriptedModel([textTurn('1'), textTurn('2'), textTurn('3')]);
    const subagent = subagentTool({ agents: { a: { description: 'A', model: a } }, maxSubRuns: 2 });
    const parent = scriptedModel([
      toolCallTurn({
        name: 'subagent',
        args: {
          tasks: [
            { agent: 'a', task: 'x' },
            { agent: 'a', task: 'y' },
          ],
        },
      }),
      toolCallTurn({ name: 'subagent', args: { agent: 'a', task: 'z' } }),
      textTurn('Ok.'),
    ]);
    const events = await collectEvents(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }));
    const [first, second] = toolEnds(events);
    expect(first?.isError).toBe(false);
    expect(resultText(second)).toMatch(/already used its 2 sub-runs \(maxSubRuns\)/);
    expect(a.calls).toBe(2);
  });

  it('rejects a config without agents or with a bad name, saying what to fix', () => {
    expect(() => subagentTool({ agents: {} })).toThrow(/at least one sub-agent/);
    expect(() => subagentTool({ agents: { 'a b': { description: 'x', model: scriptedModel([]) } } })).toThrow(
      /Sub-agent name "a b" is not valid/,
    );
    expect(() =>
      subagentTool({ agents: { a: { description: 'x', model: scriptedModel([]) } }, maxConcurrency: 0 }),
    ).toThrow(/maxConcurrency must be a whole number/);
  });
});

export type { AgentEvent };
