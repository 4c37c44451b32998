import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import { RateLimitError, runAgent, tool } from '@rxagent/core';
import { errorTurn, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { formatSuiteReport } from './format-suite-report.js';
import { recordRun } from './record-run.js';
import { replaySuite } from './replay-suite.js';
import { fileLog } from './run-log-sink.js';
import { countingTools, sampleTurns, still } from './run-fixtures.test.js';

describe('replaySuite', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'rxagent-suite-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** Records the sample run, and one with a retry and an approval, into the suite's folder. */
  async function recordSuite(): Promise<() => number> {
    const { tools, executions } = countingTools();
    await lastValueFrom(
      recordRun(
        runAgent({
          model: scriptedModel(sampleTurns()),
          tools,
          system: 'Be brief.',
          runId: 'sample',
          prompt: 'Go',
          scheduler: still,
        }),
        fileLog(join(dir, 'sample.jsonl')),
      ),
    );
    const ask = tool({
      name: 'ask',
      description: 'Asks',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'asked',
    });
    await lastValueFrom(
      recordRun(
        runAgent({
          model: scriptedModel([
            errorTurn(new RateLimitError('slow down', { retryAfterMs: 1_000 })),
            toolCallTurn([
              { id: 'a1', name: 'ask' },
              { id: 'a2', name: 'ask' },
            ]),
            textTurn('One was refused.'),
          ]),
          tools: [...tools, ask],
          system: 'Be brief.',
          runId: 'approvals',
          prompt: 'Ask twice',
          approver: ({ toolCallId }) => toolCallId === 'a1',
          retryBackoff: { initialDelayMs: 0, jitter: 0 },
          scheduler: still,
        }),
        fileLog(join(dir, 'approvals.jsonl')),
      ),
    );
    return executions;
  }

  it('finds no change when the code sends what it recorded, calling no model and no tool', async () => {
    const executions = await recordSuite();
    const ran = executions();
    const { tools } = countingTools();
    let asked = 0;
    const ask = tool({
      name: 'ask',
      description: 'Asks',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => `live ${++asked}`,
    });
    // Each recording with the tools it was made with: the sample run had no `ask`.
    const report = await replaySuite(dir, {
      config: (log) => ({
        tools: log.header.runId === 'sample' ? tools : [...tools, ask],
        system: 'Be brief.',
      }),
    });
    expect(report).toMatchObject({ changed: 0, errors: 0 });
    expect(report.runs.map((r) => [r.file, r.result])).toEqual([
      ['approvals.jsonl', 'same'],
      ['sample.jsonl', 'same'],
    ]);
    expect([executions(), asked]).toEqual([ran, 0]);
  });

  it('reports each run whose requests would now differ: a prompt, a tool schema', async () => {
    await recordSuite();
    const { tools } = countingTools();
    const ask = tool({
      name: 'ask',
      description: 'Asks',
      parameters: z.object({}),
      needsApproval: true,
      execute: () => 'x',
    });
    const prompt = await replaySuite(dir, { config: { tools: [...tools, ask], system: 'Be thorough.' } });
    expect(prompt.changed).toBe(2);
    expect(prompt.runs[1]?.diff?.firstDifferentRequest).toEqual({ callA: 0, callB: 0, part: 'system' });
    const renamed = tools.map((t) => (t.name === 'lookup' ? { ...t, description: 'Finds a number' } : t));
    const schema = await replaySuite(dir, { config: { tools: [...renamed, ask], system: 'Be brief.' } });
    expect(schema.runs.map((r) => [r.file, r.result])).toEqual([
      ['approvals.jsonl', 'changed'],
      ['sample.jsonl', 'changed'],
    ]);
    expect(schema.runs[1]?.diff?.firstDifferentRequest).toMatchObject({ part: 'tools' });
    const markdown = formatSuiteReport(schema);
    expect(markdown).toContain('# Replay suite: 2 recording(s), 2 changed, 0 error(s)');
    expect(markdown).toContain('| sample.jsonl | sample | changed | call 0: tools |');
    expect(markdown).toContain('## sample.jsonl');
  });

  it('reports a recording it cannot read as an error, and the others as usual', async () => {
    await recordSuite();
    writeFileSync(join(dir, 'broken.jsonl'), '{"format":"rxagent-run-log","version":9}\n');
    const { tools } = countingTools();
    const report = await replaySuite(dir, { config: { tools, system: 'Be brief.' } });
    expect(report.errors).toBe(1);
    expect(report.runs.find((r) => r.file === 'broken.jsonl')).toMatchObject({
      result: 'error',
      error: expect.stringContaining('format version 9') as unknown,
    });
    expect(report.runs.find((r) => r.file === 'sample.jsonl')?.result).toBe('same');
  });
});
