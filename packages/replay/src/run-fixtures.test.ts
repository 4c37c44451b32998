// Runs to record in the specs of this package (not a test file itself: jest runs *.spec.ts).
import { lastValueFrom, queueScheduler, toArray, type Observable, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import { runAgent, tool, type AgentEvent, type AnyTool, type RunAgentConfig } from '@rxagent/core';
import {
  createTestScheduler,
  scriptedModel,
  textTurn,
  toolCallTurn,
  type ScriptedModel,
} from '@rxagent/testing';
import { memoryLog, type MemoryLog } from './run-log-sink.js';
import { recordRun } from './record-run.js';

/** Tools that count their executions. */
export function countingTools(): { tools: AnyTool[]; executions: () => number } {
  let executions = 0;
  const args = z.object({ n: z.number() });
  return {
    executions: () => executions,
    tools: [
      tool({
        name: 'lookup',
        description: 'Looks a number up',
        parameters: args,
        execute: ({ n }) => {
          executions++;
          return `found ${n * 2}`;
        },
      }),
      tool({
        name: 'fail',
        description: 'Fails',
        parameters: args,
        execute: ({ n }) => {
          executions++;
          throw new Error(`failed ${n}`);
        },
      }),
    ],
  };
}

/** The model's turns of the sample run: two tool steps, then an answer. */
export function sampleTurns() {
  return [
    toolCallTurn([{ id: 'c1', name: 'lookup', args: { n: 1 } }], {
      text: 'Let me look.',
      usage: { inputTokens: 10, outputTokens: 4 },
    }),
    toolCallTurn(
      [
        { id: 'c2', name: 'lookup', args: { n: 2 } },
        { id: 'c3', name: 'fail', args: { n: 3 } },
      ],
      { usage: { inputTokens: 20, outputTokens: 6 } },
    ),
    textTurn('The answer is 4.', { usage: { inputTokens: 30, outputTokens: 5 } }),
  ];
}

export interface Recorded {
  log: MemoryLog;
  events: AgentEvent[];
  model: ScriptedModel;
  executions: () => number;
  config: Omit<RunAgentConfig, 'prompt' | 'model'>;
}

/** The sample run recorded in virtual time (the model answers `latency` ms per event). */
export function recordSample(latency = 10): Recorded {
  const log = memoryLog();
  const events: AgentEvent[] = [];
  const { tools, executions } = countingTools();
  const scheduler = createTestScheduler();
  let model!: ScriptedModel;
  const config = { tools, system: 'Be brief.', runId: 'run-1' };
  scheduler.run(() => {
    model = scriptedModel(sampleTurns(), { latency, scheduler });
    recordRun(runAgent({ ...config, model, prompt: 'What is 2 doubled?', scheduler }), log).subscribe((e) =>
      events.push(e),
    );
  });
  return { log, events, model, executions, config };
}

/** All events of a run. */
export function eventsOf(run$: Observable<AgentEvent>): Promise<AgentEvent[]> {
  return lastValueFrom(run$.pipe(toArray()));
}

/** Plain JSON of a value (what a file holds). */
export function plain<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** A clock that stands still, so two runs made at different moments stamp the same times; work runs at once. */
export const still: SchedulerLike = Object.assign(Object.create(queueScheduler) as SchedulerLike, {
  now: () => 1_000,
});
