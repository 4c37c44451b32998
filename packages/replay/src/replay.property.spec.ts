import fc from 'fast-check';
import { z } from 'zod';
import {
  MessageQueue,
  RateLimitError,
  runAgent,
  tool,
  type AgentEvent,
  type AnyTool,
  type ChatRequest,
  type RunAgentConfig,
} from '@rxagent/core';
import { scriptedModel, textTurn, toolCallTurn, type ScriptedTurn } from '@rxagent/testing';
import { diffRuns } from './diff-runs.js';
import { forkRun } from './fork-run.js';
import { recordRun } from './record-run.js';
import { replayRun } from './replay-run.js';
import { readRunLog } from './read-run-log.js';
import { rerunRecording } from './replay-suite.js';
import type { RunLog } from './run-log.js';
import { memoryLog } from './run-log-sink.js';
import { eventsOf, plain, still } from './run-fixtures.test.js';

/** One step of a random run: what the model answers (and whether its first attempt fails). */
interface StepPlan {
  calls: { tool: 'echo' | 'fail' | 'ask' | 'steer' | 'follow'; arg: number }[];
  retry: boolean;
}

/** The queues a run listens to. */
interface Queues {
  steering: MessageQueue;
  followUps: MessageQueue;
}

/**
 * The tools of a run. While `steer` and `follow` run in the original, a person sends a steering
 * message or queues a follow-up (into the queues the run listens to); run again (a fork, a suite)
 * they only answer: the messages are the recording's to deliver again.
 */
function toolsFor(queues: () => Queues | undefined, executions: { count: number }): AnyTool[] {
  const args = z.object({ n: z.number() });
  const counted =
    <T>(f: (n: number) => T) =>
    ({ n }: { n: number }): T => {
      executions.count++;
      return f(n);
    };
  return [
    tool({ name: 'echo', description: 'echo', parameters: args, execute: counted((n) => `echo ${n}`) }),
    tool({
      name: 'fail',
      description: 'fail',
      parameters: args,
      execute: counted((n) => {
        throw new Error(`failed ${n}`);
      }),
    }),
    tool({
      name: 'ask',
      description: 'ask',
      parameters: args,
      needsApproval: true,
      execute: counted((n) => `asked ${n}`),
    }),
    tool({
      name: 'steer',
      description: 'steer',
      parameters: args,
      execute: counted((n) => {
        queues()?.steering.push(`also look at ${n}`);
        return 'queued';
      }),
    }),
    tool({
      name: 'follow',
      description: 'follow',
      parameters: args,
      execute: counted((n) => {
        queues()?.followUps.push(`then report ${n}`);
        return 'noted';
      }),
    }),
  ];
}

/** The model's turns for a plan: each step (after a failed attempt when it retries), then the answer. */
function turnsFor(plan: readonly StepPlan[], structured: boolean): ScriptedTurn[] {
  const answer = (text: string) =>
    structured
      ? toolCallTurn({ id: `final_${text.length}`, name: 'final_answer', args: { answer: text } })
      : textTurn(text, { usage: { inputTokens: 5, outputTokens: 1 } });
  const turns: ScriptedTurn[] = [];
  plan.forEach((step, i) => {
    if (step.retry) turns.push({ events: [], error: new RateLimitError('slow down', { retryAfterMs: 0 }) });
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
  // A follow-up waits for the answer, and gets one of its own.
  turns.push(answer('All done.'), answer('Reported.'));
  return turns;
}

const plans = fc.array(
  fc.record({
    calls: fc.array(
      fc.record({
        tool: fc.constantFrom('echo', 'fail', 'ask', 'steer', 'follow' as const),
        arg: fc.integer({ min: 0, max: 9 }),
      }),
      { maxLength: 2 },
    ),
    retry: fc.boolean(),
  }),
  { minLength: 1, maxLength: 4 },
);

const modes = fc.constantFrom('interrupt' as const, 'after-turn' as const);

/** Where the run's user messages came and how each call ended, step by step. */
function marks(log: RunLog): string[] {
  return log.events.flatMap(({ event: e }) => {
    if (e.type === 'turn-start') return [`step ${e.step}`];
    if (e.type === 'tool-end') return [`${e.toolCallId} ${e.outcome}`];
    if (e.type === 'message-end' && e.message.role === 'user')
      return [`user ${JSON.stringify(e.message.content)}`];
    return [];
  });
}

const withoutStart = (events: readonly AgentEvent[]) => plain(events.filter((e) => e.type !== 'agent-start'));

describe('record, replay and fork random runs', () => {
  it('replays every run exactly; a fork at any step goes on with its requests; an edit diverges exactly there', async () => {
    let editedForks = 0;
    let redelivered = 0;
    await fc.assert(
      fc.asyncProperty(plans, fc.boolean(), modes, async (plan, structured, steeringMode) => {
        let live: Queues | undefined = { steering: new MessageQueue(), followUps: new MessageQueue() };
        const executions = { count: 0 };
        const settings = {
          tools: toolsFor(() => live, executions),
          maxSteps: 20,
          retryBackoff: { initialDelayMs: 0, jitter: 0 },
          steeringMode,
          ...(structured ? { output: z.object({ answer: z.string() }), outputMode: 'tool' as const } : {}),
        };
        const config = (model: RunAgentConfig['model']): Omit<RunAgentConfig, 'prompt'> => ({
          ...settings,
          model,
          scheduler: still,
          approver: ({ args }) => (args as { n: number }).n % 2 === 0,
        });
        const turns = turnsFor(plan, structured);
        const model = scriptedModel(turns);
        const sink = memoryLog();
        const events = await eventsOf(
          recordRun(
            runAgent({
              ...config(model),
              steering$: live.steering,
              followUp$: live.followUps,
              runId: 'run-1',
              prompt: 'Go.',
            }),
            sink,
          ),
        );
        expect(events.at(-1)?.type).toBe('agent-end');
        const log = readRunLog(sink.text());
        // From here on the person's messages are the recording's, delivered again.
        live = undefined;
        const person = /^"(also look at|then report) /;
        const sent = events.filter(
          (e) =>
            e.type === 'message-end' &&
            e.message.role === 'user' &&
            person.test(JSON.stringify(e.message.content)),
        );
        if (sent.length > 0) redelivered++;

        // A suite runs it again with the same code: the same requests, the messages where they came.
        const rerun = rerunRecording(log, settings);
        expect(diffRuns(log, rerun).firstDifferentRequest).toBeUndefined();
        expect(marks(rerun)).toEqual(marks(log));

        // Replay: the same events, no model call, no tool execution.
        const [calls, executed] = [model.calls, executions.count];
        expect(await eventsOf(replayRun(log, { speed: Infinity }))).toEqual(events);
        expect([model.calls, executions.count]).toEqual([calls, executed]);

        const requests = log.requests();
        expect(plain(requests)).toEqual(plain(model.requests));
        for (const point of log.snapshots) {
          // A fork with no edit: the original's remaining requests and events.
          const rest = scriptedModel(turns.slice(point.calls));
          const fork = await eventsOf(forkRun(log, { at: { step: point.step }, config: config(rest) }));
          expect(withoutStart(fork)).toEqual(withoutStart(events.slice(point.afterSeq)));
          expect(plain(rest.requests)).toEqual(plain(requests.slice(point.calls)));

          // A fork with a tool result edited: its first request differs exactly at that result.
          const next = requests[point.calls];
          const edited = next?.messages.findIndex((m) => m.role === 'tool') ?? -1;
          const target = next?.messages[edited];
          if (!next || target?.role !== 'tool') continue;
          const editedModel = scriptedModel(turns.slice(point.calls));
          const sinkB = memoryLog();
          await eventsOf(
            recordRun(
              forkRun(log, {
                at: { step: point.step },
                edit: { kind: 'tool-result', toolCallId: target.toolCallId, content: 'edited' },
                config: config(editedModel),
              }),
              sinkB,
            ),
          );
          const first = editedModel.requests[0] as ChatRequest;
          const differs = next.messages.findIndex(
            (m, i) => JSON.stringify(m) !== JSON.stringify(first.messages[i]),
          );
          expect(differs).toBe(edited);
          expect(plain(first.messages.slice(0, edited))).toEqual(plain(next.messages.slice(0, edited)));
          editedForks++;
          expect(diffRuns(log, readRunLog(sinkB.lines)).firstDifferentRequest).toEqual({
            callA: point.calls,
            callB: 0,
            part: 'messages',
            messageIndex: edited,
          });
        }
      }),
      { numRuns: 40 },
    );
    // The edited forks were made, not skipped.
    expect(editedForks).toBeGreaterThan(20);
    // And runs with steering or follow-up messages were among them.
    expect(redelivered).toBeGreaterThan(5);
  });
});
