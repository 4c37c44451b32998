import { endWith, interval, map, take, type Observable } from 'rxjs';
import { jsonSchema, tool, type AnyTool, type ToolContext } from '@rxagent/core';
import { between, type MsRange } from './paced-model.js';

/**
 * Options of `fakeTools`.
 *
 * @example
 * fakeTools({ toolMs: [300, 1500], random: seededRandom(1) });
 */
export interface FakeToolsOptions {
  /** How long each call works (drawn per call). */
  toolMs: MsRange;
  random: () => number;
}

/**
 * Works for a while on the run's scheduler, reporting `{ done, total, label }` progress
 * `steps` times, then gives `result` (an Observable tool output: values before the last are
 * progress).
 */
function work(
  ctx: ToolContext,
  options: FakeToolsOptions,
  steps: number,
  label: (step: number) => string,
  result: string,
): Observable<unknown> {
  const tick = Math.max(1, Math.round(between(options.random, options.toolMs) / steps));
  return interval(tick, ctx.scheduler).pipe(
    take(steps),
    map((i) => ({ done: i + 1, total: steps, label: label(i + 1) })),
    endWith(result),
  );
}

/**
 * Four pretend tools for the scripted runs, slow enough to watch: `search_docs` and
 * `read_file` (free to run), `write_file` (needs approval) and `run_tests` (free; reports
 * tests passing one by one). They touch nothing: results are made up.
 *
 * @example
 * const tools = fakeTools({ toolMs: [300, 1500], random: seededRandom(7) });
 * new Agent({ model, tools, scheduler });
 */
export function fakeTools(options: FakeToolsOptions): AnyTool[] {
  const searchDocs = tool({
    name: 'search_docs',
    description: 'Search the project documentation.',
    parameters: jsonSchema<{ query: string }>({
      type: 'object',
      properties: { query: { type: 'string' } },
      required: ['query'],
    }),
    execute: ({ query }, ctx) =>
      work(
        ctx,
        options,
        4,
        (i) => `shard ${i}`,
        `3 matches for "${query}": docs/retries.md, docs/state.md, README.md`,
      ),
  });
  const readFile = tool({
    name: 'read_file',
    description: 'Read a file of the project.',
    parameters: jsonSchema<{ path: string }>({
      type: 'object',
      properties: { path: { type: 'string' } },
      required: ['path'],
    }),
    execute: ({ path }, ctx) =>
      work(
        ctx,
        options,
        3,
        (i) => `${i * 4} KB`,
        `// ${path}\nexport const retries = { max: 3, backoffMs: 1000 };\n`,
      ),
  });
  const writeFile = tool({
    name: 'write_file',
    description: 'Write a file of the project (a person approves it first).',
    parameters: jsonSchema<{ path: string; content: string }>({
      type: 'object',
      properties: { path: { type: 'string' }, content: { type: 'string' } },
      required: ['path', 'content'],
    }),
    needsApproval: true,
    execute: ({ path, content }, ctx) =>
      work(
        ctx,
        options,
        2,
        (i) => (i === 1 ? 'writing' : 'syncing'),
        `Wrote ${content.length} bytes to ${path}.`,
      ),
  });
  const runTests = tool({
    name: 'run_tests',
    description: 'Run a test suite.',
    parameters: jsonSchema<{ suite: string }>({
      type: 'object',
      properties: { suite: { type: 'string' } },
      required: ['suite'],
    }),
    execute: ({ suite }, ctx) =>
      work(ctx, options, 8, () => `${suite} passing`, `8 passed, 0 failed (${suite}).`),
  });
  return [searchDocs, readFile, writeFile, runTests] as AnyTool[];
}
