import { tool, type Approver, type Tool, type ToolContext } from '@rxagent/core';
import type { RichToolOutput } from '@rxagent/core/provider';
import {
  concatMap,
  defer,
  finalize,
  from,
  map,
  merge,
  mergeMap,
  of,
  Subject,
  tap,
  toArray,
  type Observable,
} from 'rxjs';
import { subagentArgs, subagentMode, type SubagentArgs, type SubTask } from './subagent-args.js';
import type { SubagentToolOptions } from './subagent-config.js';
import { SubagentConfigError } from './subagent-errors.js';
import { chainResult, parallelResult, singleResult } from './combine-outcomes.js';
import { runSubagent, type SubrunEnv, type SubrunOutcome } from './run-subagent.js';
import type { TaskChunk } from './task-types.js';
import { subrunLine } from './subrun-line.js';

const AGENT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * One tool that runs sub-agents, each a real `runAgent` with its own transcript, tools, model
 * and limits. The model calls it in one of four modes:
 * - single `{ agent, task }`: the answer is the result;
 * - parallel `{ tasks: [{ agent, task }, …] }`: at most `maxConcurrency` at once, answers in task order;
 * - chain `{ chain: [{ agent, task }, …] }`: in order, `{previous}` replaced by the previous answer;
 * - background `{ agent, task, background: true, description }`: returns a task id at once;
 *   the run is kept in `options.tasks` (see `deliverTaskResults` and `taskOutputTool`).
 *
 * Each sub-run event reaches the parent's stream as it happens, as a `subrun` event; its usage is added to the
 * parent's; unsubscribing or aborting the parent cancels them; a failing one is an error
 * result; depth and total sub-runs are limited; calls that need approval ask the parent's
 * approver (an `Agent`'s `approve(id)`).
 *
 * @example
 * const subagent = subagentTool({
 *   agents: {
 *     scout: { description: 'Explores a folder', model, tools: [listTool], maxSteps: 5 },
 *     writer: { description: 'Writes short summaries', model },
 *   },
 * });
 * runAgent({ model, tools: [subagent], prompt: 'What is in ./src? Ask the scout.' });
 */
export function subagentTool(options: SubagentToolOptions): Tool<SubagentArgs, RichToolOutput> {
  const names = Object.keys(options?.agents ?? {});
  if (names.length === 0) {
    throw new SubagentConfigError(
      'subagentTool needs at least one sub-agent: pass { agents: { scout: { description, model } } }.',
    );
  }
  for (const name of names) {
    const config = options.agents[name];
    if (!AGENT_NAME.test(name)) {
      throw new SubagentConfigError(
        `Sub-agent name "${name}" is not valid: use 1–64 letters, digits, "_" or "-".`,
      );
    }
    if (!config?.model || typeof config.model.stream !== 'function') {
      throw new SubagentConfigError(`Sub-agent "${name}" needs a model: pass { model } with a ChatModel.`);
    }
    for (const key of ['steering$', 'followUp$'] as const) {
      if (key in config) {
        throw new SubagentConfigError(
          `Sub-agent "${name}" was given ${key}: a sub-run's only input is its task. ` +
            'Steer or follow up the parent run (its next step can call the sub-agent again), or run the agent with runAgent yourself.',
        );
      }
    }
  }
  const maxConcurrency = options.maxConcurrency ?? 4;
  const maxDepth = options.maxDepth ?? 1;
  const maxSubRuns = options.maxSubRuns ?? 32;
  for (const [key, value] of Object.entries({ maxConcurrency, maxDepth, maxSubRuns })) {
    if (!Number.isInteger(value) || value < 1) {
      throw new SubagentConfigError(
        `subagentTool: ${key} must be a whole number of at least 1, got ${value}.`,
      );
    }
  }
  // Read at each call: a sub-agent may be given this very tool, added to `agents` after it was made.
  const agentNames = () => Object.keys(options.agents);
  const background = options.tasks
    ? ' Background: { agent, task, background: true, description } returns a task id at once; the result arrives as a message later.'
    : '';

  const envFor = (ctx: ToolContext, foreground: boolean): SubrunEnv => ({
    agents: options.agents,
    parentRunId: ctx.runId,
    parentCallId: ctx.toolCallId,
    scheduler: ctx.scheduler,
    ...(foreground ? { signal: ctx.signal } : {}),
    ...(ctx.lineage ? { lineage: ctx.lineage } : {}),
    approver: (index) => (foreground ? parentApprover(ctx, index) : options.backgroundApprover),
    // A background task's events stay out of the parent's stream: the call returned at once.
    emit: (subrun, event) => (foreground ? ctx.emitSubrun?.(subrun, event) : undefined),
    maxDepth,
    maxSubRuns,
  });

  return tool({
    name: options.name ?? 'subagent',
    get description() {
      const list = agentNames().map((n) => `- ${n}: ${options.agents[n]?.description ?? ''}`);
      return (
        'Delegate work to a sub-agent that starts from nothing but the task you give it. ' +
        'Single: { agent, task }. Parallel: { tasks: [{ agent, task }, …] }. ' +
        'Chain: { chain: [{ agent, task }, …] } with "{previous}" standing for the previous answer.' +
        `${background}\nAgents:\n${list.join('\n')}`
      );
    },
    parameters: subagentArgs,
    timeoutMs: options.timeoutMs ?? 600_000,
    validate: (args) => {
      const mode = subagentMode(args, agentNames());
      if ('refused' in mode) return mode.refused;
      if (mode.mode === 'background' && !options.tasks) {
        return 'Background mode is not available here (no task runtime): run the task without background.';
      }
      return undefined;
    },
    execute: (args, ctx): Observable<RichToolOutput> => {
      const mode = subagentMode(args, agentNames());
      if ('refused' in mode) return of({ content: [{ type: 'text', text: mode.refused }], isError: true });
      switch (mode.mode) {
        case 'single':
          return runSubagent(mode.task, envFor(ctx, true)).pipe(map(singleResult));
        case 'parallel': {
          const env = envFor(ctx, true);
          return from(mode.tasks).pipe(
            mergeMap((task) => runSubagent(task, env), maxConcurrency),
            toArray(),
            map(parallelResult),
          );
        }
        case 'chain':
          return runChain(mode.tasks, envFor(ctx, true)).pipe(map((o) => chainResult(o, mode.tasks.length)));
        case 'background':
          return of(startBackground(mode.task, mode.description, envFor(ctx, false), options));
      }
    },
  });
}

/** The parent's approver for sub-run `index`'s calls, under ids unique in the parent's run. */
function parentApprover(ctx: ToolContext, index: number): Approver {
  return (request) => {
    if (!ctx.requestApproval) {
      return { approved: false, reason: 'Tool call needs approval but no approver is configured.' };
    }
    return ctx.requestApproval({
      ...request,
      toolCallId: `${ctx.toolCallId}/${index}/${request.toolCallId}`,
    });
  };
}

/** Runs the steps in order, each seeing the previous answer as `{previous}`; stops at a failure. */
function runChain(tasks: readonly SubTask[], env: SubrunEnv): Observable<SubrunOutcome[]> {
  const step = (i: number, previous: string, done: SubrunOutcome[]): Observable<SubrunOutcome[]> => {
    const task = tasks[i];
    if (!task) return of(done);
    const text = task.task.split('{previous}').join(previous);
    return runSubagent({ ...task, task: text }, env).pipe(
      concatMap((outcome) => {
        const all = [...done, outcome];
        return outcome.isError ? of(all) : step(i + 1, outcome.text, all);
      }),
    );
  };
  return defer(() => step(0, '', []));
}

function startBackground(
  task: SubTask,
  description: string,
  env: SubrunEnv,
  options: SubagentToolOptions,
): RichToolOutput {
  const tasks = options.tasks;
  if (!tasks)
    return { content: [{ type: 'text', text: 'Background mode needs a task runtime.' }], isError: true };
  const work: Observable<TaskChunk> = defer(() => {
    const lines = new Subject<TaskChunk>();
    const run$ = runSubagent(task, {
      ...env,
      emit: (subrun, event) => {
        const line = subrunLine({
          type: 'subrun',
          toolCallId: env.parentCallId,
          path: [{ ...subrun, toolCallId: env.parentCallId }],
          event,
        });
        if (line) lines.next({ output: `${line}\n` });
      },
    }).pipe(
      map((o): TaskChunk => ({ result: o.text, isError: o.isError, usage: o.usage })),
      tap({ complete: () => lines.complete() }),
      finalize(() => lines.complete()),
    );
    return merge(lines, run$);
  });
  const info = tasks.start({ kind: 'subagent', description: `${task.agent}: ${description}`, work });
  return {
    content: [
      {
        type: 'text',
        text:
          `Started background task ${info.id} (${task.agent}: ${description}). Its result will arrive as a message ` +
          `when it ends; to check sooner, call task_output with { "taskId": "${info.id}" }.`,
      },
    ],
    isError: false,
  };
}
