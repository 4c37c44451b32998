import { z } from 'zod';
import { runAgent, tool } from '@rxagent/core';
import { scriptedModel, toolCallTurn, errorTurn } from '@rxagent/testing';
import { ProviderError } from '@rxagent/core';
import { evaluateRuns, formatEvalReport } from './evaluate-runs.js';
import { finalToolState, scorer, structuredOutputValid, toolCallSequence } from './scorers.js';
import { still } from './run-fixtures.test.js';

describe('evaluateRuns and the scorers', () => {
  it('scores k live trials of each task and reports pass^k beside the pass rate', async () => {
    const orders = new Map<number, string>();
    const refund = tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ id: z.number() }),
      execute: ({ id }) => {
        orders.set(id, 'refunded');
        return 'ok';
      },
    });
    const lookup = tool({
      name: 'lookup',
      description: 'Finds an order',
      parameters: z.object({ id: z.number() }),
      execute: () => 'open',
    });
    const answer = z.object({ status: z.string() });
    // The steady agent: look up, refund, answer. The flaky one skips the lookup on trial 2.
    const steady = () =>
      scriptedModel([
        toolCallTurn({ id: 'l', name: 'lookup', args: { id: 1 } }),
        toolCallTurn({ id: 'r', name: 'refund', args: { id: 1 } }),
        toolCallTurn({ id: 'f', name: 'final_answer', args: { status: 'refunded' } }),
      ]);
    const flaky = (trial: number) =>
      trial === 1
        ? scriptedModel([
            toolCallTurn({ id: 'r', name: 'refund', args: { id: 1 } }),
            toolCallTurn({ id: 'f', name: 'final_answer', args: { status: 'done' } }),
          ])
        : steady();
    const run = (model: ReturnType<typeof steady>) =>
      runAgent({
        model,
        tools: [lookup, refund],
        prompt: 'Refund order 1',
        output: answer,
        outputMode: 'tool',
        scheduler: still,
      });
    const report = await evaluateRuns(
      [
        { name: 'steady', setup: () => orders.clear(), run: () => run(steady()) },
        { name: 'flaky', setup: () => orders.clear(), run: (i) => run(flaky(i)) },
        {
          name: 'broken',
          run: () =>
            runAgent({
              model: scriptedModel([errorTurn(new ProviderError('down', { retryable: false }))]),
              prompt: 'x',
              scheduler: still,
            }),
        },
      ],
      {
        k: 3,
        scorers: [
          toolCallSequence(['lookup', 'refund']),
          finalToolState(() => [...orders], [[1, 'refunded']]),
          structuredOutputValid(answer),
          scorer('says refunded', (t) => {
            const end = t.events.at(-1);
            return {
              pass: end?.type === 'agent-end' && (end.output as { status?: string }).status === 'refunded',
            };
          }),
        ],
      },
    );
    expect(report.tasks.map((t) => [t.name, t.passed, t.passAll])).toEqual([
      ['steady', 3, true],
      ['flaky', 2, false],
      ['broken', 0, false],
    ]);
    expect(report.passHatK).toBeCloseTo(1 / 3);
    expect(report.passRate).toBeCloseTo(5 / 9);
    const failed = report.tasks[1]?.trials[1]?.scores ?? {};
    expect(failed['tool calls = lookup → refund']).toMatchObject({
      pass: false,
      score: 0,
      detail: 'called refund',
    });
    expect(failed['final tool state']).toEqual({ pass: true });
    expect(failed['says refunded']).toEqual({ pass: false });
    expect(report.tasks[2]?.trials[0]?.scores.run).toMatchObject({ pass: false, detail: 'down' });
    expect(report.tasks[2]?.trials[0]?.scores['structured output valid']).toEqual({
      pass: false,
      detail: 'no final answer',
    });
    // JSON and Markdown forms.
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    const markdown = formatEvalReport(report);
    expect(markdown).toContain('# Evaluation: pass^3 33 %, pass rate 56 %');
    expect(markdown).toContain('| flaky | 2/3 | no |');
    expect(markdown).toContain('## flaky, trial 2');
    expect(markdown).toContain('- FAIL tool calls = lookup → refund: called refund');
  });

  it('in-order sequences allow other calls between; structured output is checked against the schema', async () => {
    const seq = toolCallSequence(['a', 'c'], { mode: 'in-order' });
    const events = ['a', 'b', 'c'].map((toolName) => ({
      type: 'tool-start' as const,
      toolCallId: toolName,
      toolName,
      args: {},
    }));
    expect(await seq.score({ index: 0, events })).toEqual({ pass: true, score: 1 });
    expect(await toolCallSequence(['a', 'c']).score({ index: 0, events })).toMatchObject({
      pass: false,
      score: 1,
    });
    const valid = structuredOutputValid(z.object({ n: z.number() }));
    const end = (output: unknown) => ({
      index: 0,
      events: [
        {
          type: 'agent-end' as const,
          reason: 'completed' as const,
          signal: { reason: 'completed' as const, message: '' },
          messages: [],
          usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
          steps: 1,
          output,
        },
      ],
    });
    expect(await valid.score(end({ n: 1 }))).toEqual({ pass: true });
    expect(await valid.score(end({ n: 'one' }))).toMatchObject({
      pass: false,
      detail: expect.stringContaining('n:') as unknown,
    });
  });
});
