import fc from 'fast-check';
import { lastValueFrom, Observable, queueScheduler, tap, toArray, type SchedulerLike } from 'rxjs';
import { scriptedModel, textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import { z } from 'zod';
import { RateLimitError } from '../errors/provider-errors.js';
import { RunSnapshotError } from '../errors/run-snapshot-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import { tool, type AnyTool } from '../tools/tool.js';
import { isTurn } from '../turn/loop-item.js';
import { MessageQueue } from '../turn/message-queue.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';
import { defaultPipeline } from './default-pipeline.js';
import { resumeRun } from './resume-run.js';
import { runAgent } from './run-agent.js';

// A clock that stands still, so two runs made at different moments stamp the same times; work
// runs at once (retries back off 0 ms here).
const still: SchedulerLike = Object.assign(Object.create(queueScheduler) as SchedulerLike, {
  now: () => 1_000,
});

/** One step of a random run: what the model answers (and whether its first attempt fails). */
interface StepPlan {
  calls: { tool: 'echo' | 'fail' | 'ask' | 'steer'; arg: number }[];
  retry: boolean;
}

/** The tools of a run; `steer` queues a user message into whichever queue the run listens to. */
function toolsFor(queue: () => MessageQueue): AnyTool[] {
  const args = z.object({ n: z.number() });
  return [
    tool({ name: 'echo', description: 'echo', parameters: args, execute: ({ n }) => `echo ${n}` }),
    tool({
      name: 'fail',
      description: 'fail',
      parameters: args,
      execute: ({ n }) => {
        throw new Error(`failed ${n}`);
      },
    }),
    tool({
      name: 'ask',
      description: 'ask',
      parameters: args,
      needsApproval: true,
      execute: ({ n }) => `asked ${n}`,
    }),
    tool({
      name: 'steer',
      description: 'steer',
      parameters: args,
      execute: ({ n }) => {
        queue().push(`also look at ${n}`);
        return 'queued';
      },
    }),
  ];
}

/** The model's turns for a plan: each step (after a failed attempt when it retries), then the answer. */
function turnsFor(plan: readonly StepPlan[], structured: boolean): ScriptedTurn[] {
  const turns: ScriptedTurn[] = [];
  plan.forEach((step, i) => {
    if (step.retry) turns.push({ events: [], error: new RateLimitError('slow down', { retryAfterMs: 0 }) });
    // A text answer in tool mode would count as an invalid structured answer: call a tool instead.
    const calls = structured && step.calls.length === 0 ? [{ tool: 'echo' as const, arg: i }] : step.calls;
    turns.push(
      calls.length === 0
        ? textTurn(`thinking ${i}`, { stopReason: 'length' })
        : toolCallTurn(
            calls.map((c, j) => ({ id: `c${i}_${j}`, name: c.tool, args: { n: c.arg } })),
            { usage: { inputTokens: 10 + i, outputTokens: 2 } },
          ),
    );
  });
  turns.push(
    structured
      ? toolCallTurn({ id: 'final', name: 'final_answer', args: { answer: 'done' } })
      : textTurn('All done.', { usage: { inputTokens: 5, outputTokens: 1 } }),
  );
  return turns;
}

const plans = fc.array(
  fc.record({
    calls: fc.array(
      fc.record({
        tool: fc.constantFrom('echo', 'fail', 'ask', 'steer' as const),
        arg: fc.integer({ min: 0, max: 9 }),
      }),
      { maxLength: 2 },
    ),
    retry: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

/** Events without what a resumed run may differ in by design (its start). */
function comparable(events: readonly AgentEvent[]): unknown[] {
  return JSON.parse(JSON.stringify(events.filter((e) => e.type !== 'agent-start'))) as unknown[];
}

describe('resumeRun', () => {
  it('continues any run from a snapshot taken after any turn: the same model requests and events', async () => {
    await fc.assert(
      fc.asyncProperty(plans, fc.boolean(), async (plan, structured) => {
        let queue = new MessageQueue();
        const base = (model: RunAgentConfig['model']): RunAgentConfig => ({
          model,
          tools: toolsFor(() => queue),
          scheduler: still,
          maxSteps: 20,
          retryBackoff: { initialDelayMs: 0, jitter: 0 },
          approver: ({ args }) => (args as { n: number }).n % 2 === 0,
          steering$: queue,
          ...(structured ? { output: z.object({ answer: z.string() }), outputMode: 'tool' as const } : {}),
        });
        const turns = turnsFor(plan, structured);
        const model = scriptedModel(turns);
        const snapshots: { snapshot: RunSnapshot; calls: number; events: number }[] = [];
        const events: AgentEvent[] = [];
        const config = base(model);
        await lastValueFrom(
          runAgent({
            ...config,
            runId: 'run-1',
            prompt: 'Go.',
            onSnapshot: (snapshot) => snapshots.push({ snapshot, calls: model.calls, events: events.length }),
          }).pipe(
            tap((e) => events.push(e)),
            toArray(),
          ),
        );
        expect(events.at(-1)?.type).toBe('agent-end');
        for (const taken of snapshots) {
          const saved = JSON.parse(JSON.stringify(taken.snapshot)) as RunSnapshot;
          expect(saved).toEqual(taken.snapshot);
          queue = new MessageQueue();
          const rest = scriptedModel(turns.slice(taken.calls));
          const resumedConfig = base(rest);
          const resumed = await lastValueFrom(resumeRun(saved, resumedConfig).pipe(toArray()));
          expect(resumed[0]).toMatchObject({ type: 'agent-start', runId: 'run-1' });
          expect(comparable(resumed)).toEqual(comparable(events.slice(taken.events)));
          expect(JSON.parse(JSON.stringify(rest.requests))).toEqual(
            JSON.parse(JSON.stringify(model.requests.slice(taken.calls))),
          );
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses a snapshot of another format version, naming both', async () => {
    const snapshot = { version: 7, messages: [] } as unknown as RunSnapshot;
    await expect(lastValueFrom(resumeRun(snapshot, { model: scriptedModel([]) }))).rejects.toThrow(
      /format version 7; this rxagent reads version 1/,
    );
  });

  it('fails at start, before any model call, when the config lacks a tool the snapshot names', async () => {
    let taken: RunSnapshot | undefined;
    const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });
    const model = scriptedModel([toolCallTurn({ name: 'echo', args: {} }), textTurn('done')]);
    const config: RunAgentConfig = { model, tools: [echo], scheduler: still };
    await lastValueFrom(
      runAgent({
        ...config,
        prompt: 'Go',
        pipeline: (t$) =>
          defaultPipeline(config)(t$).pipe(tap((i) => isTurn(i) && !taken && (taken = i.snapshot()))),
      }),
    );
    const rest = scriptedModel([textTurn('never')]);
    const error: unknown = await lastValueFrom(resumeRun(taken as RunSnapshot, { model: rest })).catch(
      (e: unknown) => e,
    );
    expect(RunSnapshotError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('the tool "echo"');
    expect(rest.calls).toBe(0);
  });

  it('is a cold Observable: nothing runs before it is subscribed', () => {
    const model = scriptedModel([textTurn('hi')]);
    const resumed = resumeRun({} as RunSnapshot, { model });
    expect(resumed).toBeInstanceOf(Observable);
    expect(model.calls).toBe(0);
  });
});
