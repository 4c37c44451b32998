import fc from 'fast-check';
import { z } from 'zod';
import {
  MessageQueue,
  runAgent,
  type AgentEvent,
  type ChatRequest,
  type RunAgentConfig,
} from '@rxagent/core';
import { contextEngine } from '@rxagent/context';
import { subagentTool } from '@rxagent/subagents';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { diffRuns } from './diff-runs.js';
import { forkRun } from './fork-run.js';
import { marks, modes, plans, toolsFor, turnsFor, type Queues } from './random-runs.test.js';
import { recordRun } from './record-run.js';
import { replayRun } from './replay-run.js';
import { readRunLog } from './read-run-log.js';
import { rerunRecording } from './replay-suite.js';
import { memoryLog } from './run-log-sink.js';
import { eventsOf, plain, still } from './run-fixtures.test.js';

// A fork's own start aside.
const withoutStart = (events: readonly AgentEvent[]) => plain(events.filter((e) => e.type !== 'agent-start'));

describe('record, replay and fork random runs', () => {
  it('replays every run exactly; a fork at any step goes on with its requests; an edit diverges exactly there', async () => {
    let editedForks = 0;
    let compactedForks = 0;
    let redelivered = 0;
    const seen = { compaction: 0, subrun: 0 };
    await fc.assert(
      fc.asyncProperty(
        plans,
        fc.boolean(),
        modes,
        fc.boolean(),
        async (plan, structured, steeringMode, compact) => {
          let live: Queues | undefined = { steering: new MessageQueue(), followUps: new MessageQueue() };
          const executions = { count: 0 };
          // A sub-agent and a context engine of their own for each run (their models are scripted).
          const repeated = (text: string) => scriptedModel(Array.from({ length: 40 }, () => textTurn(text)));
          const settings = () => ({
            tools: [
              ...toolsFor(() => live, executions, compact),
              subagentTool({
                agents: {
                  scout: { description: 'Finds things', model: repeated('Found it.'), scheduler: still },
                },
              }),
            ],
            ...(compact
              ? {
                  contextManager: contextEngine({
                    model: repeated('Summary of the work so far.'),
                    contextWindow: 4_000,
                    reserveTokens: 500,
                    keepRecentTokens: 1_000,
                  }),
                }
              : {}),
            maxSteps: 20,
            retryBackoff: { initialDelayMs: 0, jitter: 0 },
            steeringMode,
            ...(structured ? { output: z.object({ answer: z.string() }), outputMode: 'tool' as const } : {}),
          });
          const config = (model: RunAgentConfig['model']): Omit<RunAgentConfig, 'prompt'> => ({
            ...settings(),
            model,
            scheduler: still,
            approver: ({ args }) => (args as { n: number }).n % 2 === 0,
          });
          const turns = turnsFor(plan, structured, compact);
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
          if (events.some((e) => e.type === 'compaction')) seen.compaction++;
          if (events.some((e) => e.type === 'subrun')) seen.subrun++;

          // A suite runs it again with the same code: the same requests, the messages where they came.
          const rerun = rerunRecording(log, settings());
          expect(diffRuns(log, rerun).firstDifferentRequest).toBeUndefined();
          expect(marks(rerun)).toEqual(marks(log));

          // Replay: the same events, no model call, no tool execution.
          const [calls, executed] = [model.calls, executions.count];
          expect(await eventsOf(replayRun(log, { speed: Infinity }))).toEqual(events);
          expect([model.calls, executions.count]).toEqual([calls, executed]);

          const requests = log.requests();
          expect(plain(requests)).toEqual(plain(model.requests));
          // Forks after a compaction too: the context engine's state is in the run's snapshot, so
          // it starts from the original's summary (not a fresh one) and its usage estimates go on.
          for (const point of log.snapshots) {
            // A fork with no edit: the original's remaining requests and events.
            const rest = scriptedModel(turns.slice(point.calls));
            // (The fork's run id is the original's: its sub-runs' ids are made from it.)
            const fork = await eventsOf(
              forkRun(log, { at: { step: point.step }, runId: 'run-1', config: config(rest) }),
            );
            expect(withoutStart(fork)).toEqual(withoutStart(events.slice(point.afterSeq)));
            expect(plain(rest.requests)).toEqual(plain(requests.slice(point.calls)));
            const before = events.slice(0, point.afterSeq);
            if (before.some((e) => e.type === 'compaction' && e.strategy.startsWith('summary'))) {
              compactedForks++;
            }

            // A fork with a tool result edited: its first request differs exactly at that result.
            const next = requests[point.calls];
            const edited = next?.messages.findIndex((m) => m.role === 'tool') ?? -1;
            const target = next?.messages[edited];
            // (Not with a context engine: an edit changes what it measures and summarizes, so where
            // it compacts may move, and the first difference with it.)
            if (!next || target?.role !== 'tool' || compact) continue;
            const content = 'edited';
            const editedModel = scriptedModel(turns.slice(point.calls));
            const sinkB = memoryLog();
            await eventsOf(
              recordRun(
                forkRun(log, {
                  at: { step: point.step },
                  edit: { kind: 'tool-result', toolCallId: target.toolCallId, content },
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
        },
      ),
      { numRuns: 40 },
    );
    // The edited forks were made, not skipped.
    expect(editedForks).toBeGreaterThan(20);
    // And runs with steering or follow-up messages were among them.
    expect(redelivered).toBeGreaterThan(5);
    // And runs that compacted their context, and runs with sub-agents.
    expect(seen.compaction).toBeGreaterThan(3);
    expect(seen.subrun).toBeGreaterThan(5);
    // And forks made after a summary (their requests and events are the original's, checked above).
    expect(compactedForks).toBeGreaterThan(1);
  });
});
