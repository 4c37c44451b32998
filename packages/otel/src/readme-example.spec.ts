import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { runAgent, tool } from '@rxagent/core';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { traceRun } from './trace-run.js';
import { memoryTracing, spanTree } from './test-tracing.test.js';

// The README shows a span tree: this runs its example and checks the tree is what it makes.
describe('the README example', () => {
  it('makes the span tree the README shows', async () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const shown = /```text\n([\s\S]*?)```/.exec(readme)?.[1]?.trimEnd().split('\n');
    const tracing = memoryTracing();
    const read = tool({
      name: 'read',
      description: 'Reads a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => `contents of ${path}`,
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'read', args: { path: 'a.md' } },
        { name: 'read', args: { path: 'b.md' } },
      ]),
      textTurn('Both are notes.'),
    ]);
    await collectEvents(
      runAgent({
        model,
        prompt: 'Read a.md and b.md',
        tools: [read],
        instrument: traceRun({ tracerProvider: tracing.provider, agentName: 'reader' }),
      }),
    );
    expect(spanTree(tracing.spans()).map((line) => line.replace(/ \[.*$/, ''))).toEqual(shown);
  });
});
