import { lastValueFrom, tap, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import { runAgent, tool, type AnyTool, type ChatModel } from '@rxagent/core';
import { subagentTool } from '@rxagent/subagents';
import type { FakeAnswer, FakeProviderRequest } from '@rxagent/testing';

// The rate-limit benchmark's load: concurrent runs, 2 of every 5 handing three tasks to
// sub-agents in one parallel `subagent` call, the others calling a `lookup` tool; every run
// then answers. The fake provider plays the model (`respondToWorkload`); prompts are a few
// hundred tokens, as a small agent's are.

const SYSTEM =
  'You are the release assistant of a mid-sized software team. You read the facts you are given, ' +
  'check them with the tools you have, and answer in short paragraphs that a busy engineer can ' +
  'act on. Name files, versions and owners when you know them; say plainly when you do not. ' +
  'Never invent a ticket number or a date. '.repeat(4);
const HELPER_SYSTEM =
  'You are a helper. Do the one task you are given, using what you know, and answer in five lines ' +
  'or fewer, starting with the finding. '.repeat(3);
const LOOKUP_RESULT = 'Owner: platform team. Last release 4.2.1, 12 days ago; 3 open blockers. '.repeat(8);
const HELPER_ANSWER =
  'Checked the module: two call sites use the old API, one test covers it, no blocker. '.repeat(5);
const FINAL_ANSWER =
  'Ready to ship once the two call sites move to the new API; the platform team owns it. '.repeat(3);

/** Which runs hand work to sub-agents: 2 of every 5 (20 of 50). */
export const helpersFor = (run: number): boolean => run % 5 < 2;

/** Sub-agents each helper run starts. */
export const SUBAGENTS_PER_RUN = 3;

function prompt(run: number): string {
  const ask = helpersFor(run)
    ? 'Ask your helpers to check the three modules that changed, then tell me whether to ship.'
    : 'Look up the service first, then tell me whether to ship.';
  return `Release review #${run}: service billing-${run}, version 4.3.0-rc.${run}. ${ask} `.repeat(3);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { text?: unknown }) => (typeof part?.text === 'string' ? part.text : ''))
    .join('');
}

/**
 * The fake provider's answers (OpenAI Chat Completions bodies): a helper's call gets its
 * finding; a run's first call its tool call; a call after tool results the final answer.
 *
 * @example
 * const provider = await startRateLimitedProvider({ respond: respondToWorkload, clock });
 */
export function respondToWorkload(request: FakeProviderRequest): FakeAnswer {
  const messages = ((request.body as { messages?: unknown[] }).messages ?? []) as {
    role?: string;
    content?: unknown;
  }[];
  const system = messages[0]?.role === 'system' ? textOf(messages[0].content) : '';
  if (system.startsWith(HELPER_SYSTEM.slice(0, 40))) return { text: HELPER_ANSWER };
  if (messages.at(-1)?.role === 'tool') return { text: FINAL_ANSWER };
  const user = textOf(messages.find((m) => m.role === 'user')?.content);
  if (!user.includes('helpers')) return { toolCalls: [{ name: 'lookup', args: { service: 'billing' } }] };
  const tasks = ['invoices', 'payments', 'exports'].map((module) => ({
    agent: 'helper',
    task: `Check the ${module} module for uses of the old API and for missing tests.`,
  }));
  return { toolCalls: [{ name: 'subagent', args: { tasks } }] };
}

const lookup = tool({
  name: 'lookup',
  description: 'Facts about a service: owner, last release, open blockers',
  parameters: z.object({ service: z.string() }),
  execute: () => LOOKUP_RESULT,
});

/**
 * How the runs of the load ended.
 *
 * @example
 * const { failedRuns, failedSubRuns } = await runWorkload(50, models, clock);
 */
export interface WorkloadOutcome {
  runs: number;
  subRuns: number;
  /** Runs that ended with an error. */
  failedRuns: number;
  /** Sub-runs whose parent saw them fail (`(failed)` in the subagent tool's result). */
  failedSubRuns: number;
}

/**
 * Runs the load at once and waits for every run to end. `models(run)` gives the run's model
 * and its sub-agents' (the same one, so a run and its sub-runs share a limiter key).
 *
 * @example
 * await runWorkload(50, (run) => rateLimited(base, limits, { key: `run-${run}` }), clock);
 */
export async function runWorkload(
  runs: number,
  models: (run: number) => ChatModel,
  scheduler: SchedulerLike,
): Promise<WorkloadOutcome> {
  let failedSubRuns = 0;
  let subRuns = 0;
  const one = async (run: number): Promise<boolean> => {
    const model = models(run);
    const tools: AnyTool[] = helpersFor(run)
      ? [
          subagentTool({
            agents: {
              helper: { description: 'Checks one module', model, system: HELPER_SYSTEM, maxSteps: 2 },
            },
            maxConcurrency: SUBAGENTS_PER_RUN,
          }),
        ]
      : [lookup];
    if (helpersFor(run)) subRuns += SUBAGENTS_PER_RUN;
    const run$ = runAgent({
      model,
      system: SYSTEM,
      tools,
      prompt: prompt(run),
      scheduler,
      maxRetries: 3,
    }).pipe(
      tap((event) => {
        if (event.type !== 'tool-end' || event.toolName !== 'subagent') return;
        const text = event.result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
        failedSubRuns += text.match(/\) \(failed\):/g)?.length ?? 0;
      }),
    );
    return lastValueFrom(run$).then(
      () => true,
      () => false,
    );
  };
  const ended = await Promise.all(Array.from({ length: runs }, (_, run) => one(run)));
  return { runs, subRuns, failedRuns: ended.filter((ok) => !ok).length, failedSubRuns };
}
