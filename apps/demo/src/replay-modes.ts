import type { Observable } from 'rxjs';
import type { AgentEvent, AnyTool, ChatModel } from '@rxagent/core';
import type { ContextManager } from '@rxagent/core/context';
import { fileLog, forkRun, readRunLogFile, recordRun, replayRun, type ForkEdit } from '@rxagent/replay';
import type { DemoArgs } from './parse-args.js';
import { offlineModel } from './offline-plan.js';

/**
 * What the demo runs with, for a fork: the model (or, offline, how to make it), tools, system
 * prompt and limits.
 *
 * @example
 * const setup: ForkSetup = { model, tools, system: SYSTEM, maxSteps: 12, offline: false, fast: false };
 */
export interface ForkSetup {
  model: ChatModel;
  tools: AnyTool[];
  system?: string;
  maxSteps: number;
  contextManager?: ContextManager;
  /** The built-in scripted model: a fork plays the rest of its plan. */
  offline: boolean;
  fast: boolean;
}

/**
 * The events `--replay` shows (the recorded run, at its pace; at once when fast), or, with
 * `--fork-at`, those of the fork (live, recorded with `--record`), and a line saying which.
 *
 * @example
 * const { events$, notice } = recordedEvents(args, setup);
 */
export function recordedEvents(
  args: DemoArgs,
  setup: ForkSetup,
): { events$: Observable<AgentEvent>; notice: string } {
  const path = args.replay as string;
  const log = readRunLogFile(path);
  if (args.forkAt === undefined) {
    return {
      events$: replayRun(log, { speed: setup.fast ? Infinity : 1 }),
      notice: `Replaying ${path} (run ${log.header.runId}): no model call, no tool run.`,
    };
  }
  const point = log.snapshots.find((s) => s.step === args.forkAt);
  const model = setup.offline
    ? offlineModel({
        skip: point?.calls ?? 0,
        ...(setup.fast ? { latency: { firstMs: 5, perEventMs: 1 } } : {}),
      })
    : setup.model;
  const edit: ForkEdit | undefined = args.editResult && {
    kind: 'tool-result',
    toolCallId: args.editResult.toolCallId,
    content: args.editResult.text,
  };
  const fork$ = forkRun(log, {
    at: { step: args.forkAt },
    ...(edit ? { edit } : {}),
    config: {
      model,
      tools: setup.tools,
      maxSteps: setup.maxSteps,
      ...(setup.system !== undefined ? { system: setup.system } : {}),
      ...(setup.contextManager ? { contextManager: setup.contextManager } : {}),
    },
  });
  const { forkedAt, parentRunId } = fork$.lineage;
  return {
    events$: args.record ? recordRun(fork$, fileLog(args.record)) : fork$,
    notice:
      `Forking ${path} (run ${parentRunId}) at the end of step ${forkedAt.step}` +
      `${edit ? `, with ${edit.toolCallId}'s result replaced` : ''}: live from here.` +
      `${args.record ? ` Recording the fork to ${args.record}.` : ''}`,
  };
}
