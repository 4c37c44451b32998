import { concat, from, map, timer, VirtualTimeScheduler, type Observable, type SchedulerLike } from 'rxjs';
import { z } from 'zod';
import {
  emptyUsage,
  runAgent,
  tool,
  type AnyTool,
  type AssistantMessage,
  type ChatModel,
  type ModelEvent,
  type ToolCallPart,
} from '@rxagent/core';

/** The step of issue 26: how long the model streams, the tools take, and when each call is complete. */
export interface EagerScenario {
  streamMs: number;
  toolMs: number;
  callsAtMs: readonly number[];
}

/** The scenario of issue 26: 1,000 ms of stream, three 300 ms tools asked at 200, 400 and 600 ms. */
export const EAGER_SCENARIO: EagerScenario = { streamMs: 1_000, toolMs: 300, callsAtMs: [200, 400, 600] };

/** When the run ended (virtual ms) with eager tools, without, and without one at a time. */
export interface EagerResult {
  scenario: EagerScenario;
  /** The step with eager tools. */
  eagerMs: number;
  /** When each eager call started. */
  eagerStarts: number[];
  /** Executions of the tool in the eager run (one per call: adopted, never run twice). */
  eagerExecutions: number;
  /** The same step, tools not eager, up to 8 at once (the default). */
  parallelMs: number;
  /** The same step, tools not eager, one at a time (`toolConcurrency: 1`). */
  sequentialMs: number;
}

const message = (content: AssistantMessage['content'], stopReason: AssistantMessage['stopReason']) => ({
  role: 'assistant' as const,
  content,
  stopReason,
  usage: emptyUsage(),
  provider: 'bench',
  model: 'eager-scenario',
  timestamp: 0,
});

/** A model on `scheduler`: the step's calls complete at their times, its message at `streamMs`; then an answer. */
function scenarioModel(s: EagerScenario, scheduler: SchedulerLike): ChatModel {
  let call = 0;
  return {
    provider: 'bench',
    modelId: 'eager-scenario',
    stream(): Observable<ModelEvent> {
      if (call++ > 0) {
        const answer = message([{ type: 'text', text: 'Done.' }], 'stop');
        const events: ModelEvent[] = [
          { type: 'text-delta', index: 0, text: 'Done.' },
          { type: 'finish', reason: 'stop', message: answer },
        ];
        return from(events);
      }
      const calls: ToolCallPart[] = s.callsAtMs.map((_, i) => ({
        type: 'tool-call',
        id: `call_${i}`,
        name: 'lookup',
        args: { q: `term ${i}` },
      }));
      let previous = 0;
      const parts = calls.map((c, i) => {
        const at = s.callsAtMs[i] as number;
        const wait = at - previous;
        previous = at;
        return timer(wait, scheduler).pipe(
          map((): ModelEvent => ({ type: 'toolcall-end', index: i, call: c })),
        );
      });
      const finish: ModelEvent = {
        type: 'finish',
        reason: 'tool-calls',
        message: message(calls, 'tool-calls'),
      };
      return concat(...parts, timer(s.streamMs - previous, scheduler).pipe(map(() => finish)));
    },
  };
}

/** One run of the scenario in virtual time. */
function runScenario(s: EagerScenario, eager: boolean, toolConcurrency?: number) {
  const scheduler = new VirtualTimeScheduler();
  let executions = 0;
  const lookup = tool({
    name: 'lookup',
    description: 'A read-only lookup',
    parameters: z.object({ q: z.string() }),
    eager,
    execute: ({ q }, ctx) => {
      executions++;
      return timer(s.toolMs, ctx.scheduler).pipe(map(() => `found ${q}`));
    },
  }) as AnyTool;
  const starts: number[] = [];
  let endedAt = Number.NaN;
  runAgent({
    model: scenarioModel(s, scheduler),
    prompt: 'look these up',
    tools: [lookup],
    scheduler,
    ...(toolConcurrency ? { toolConcurrency } : {}),
  }).subscribe((e) => {
    if (e.type === 'tool-start') starts.push(scheduler.now());
    if (e.type === 'agent-end') endedAt = scheduler.now();
  });
  scheduler.flush();
  return { endedAt, starts, executions };
}

/**
 * The eager-tools step of issue 26, in virtual time: a model whose message streams for
 * `streamMs` and whose calls to a read-only tool of `toolMs` are complete at `callsAtMs`; the run
 * ends when that step does (its second model call answers at once). Measured with the tool
 * eager, and not eager with the tools in parallel and one at a time.
 *
 * @example
 * const { eagerMs, parallelMs, sequentialMs } = benchEager();
 */
export function benchEager(s: EagerScenario = EAGER_SCENARIO): EagerResult {
  const eager = runScenario(s, true);
  return {
    scenario: s,
    eagerMs: eager.endedAt,
    eagerStarts: eager.starts,
    eagerExecutions: eager.executions,
    parallelMs: runScenario(s, false).endedAt,
    sequentialMs: runScenario(s, false, 1).endedAt,
  };
}
