import {
  addUsage,
  assistantText,
  contentText,
  emptyUsage,
  runAgent,
  type AgentEvent,
  type AgentMessage,
  type Approver,
  type StopReason,
  type Usage,
} from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import {
  catchError,
  concat,
  defer,
  ignoreElements,
  of,
  tap,
  type Observable,
  type SchedulerLike,
} from 'rxjs';
import { spentUsage, type RunLineage } from '@rxagent/core/provider';
import type { SubTask } from './subagent-args.js';
import type { SubagentConfig } from './subagent-config.js';

/**
 * How one sub-run ended: its answer (or why it has none), and what it spent.
 *
 * @example
 * const outcome: SubrunOutcome = { agent: 'scout', task: 'Find the entry point', index: 0, text: 'src/main.ts', isError: false, usage };
 */
export interface SubrunOutcome {
  agent: string;
  task: string;
  index: number;
  text: string;
  isError: boolean;
  usage: Usage;
  reason?: StopReason;
}

/** What a sub-run needs from the call that starts it. */
export interface SubrunEnv {
  agents: Readonly<Record<string, SubagentConfig>>;
  parentRunId: string;
  parentCallId: string;
  scheduler: SchedulerLike;
  signal?: AbortSignal;
  /** Where the parent sits among its runs (its depth, its top-level run's sub-run count). */
  lineage?: RunLineage;
  /** Asks about the sub-run's calls that need approval (unless its own config has an approver). */
  approver: (index: number) => Approver | undefined;
  /** Each event of the sub-run, as it happens (the parent puts it on its stream as a `subrun` event). */
  emit(subrun: { agent: string; runId: string }, event: AgentEvent): void;
  maxDepth: number;
  maxSubRuns: number;
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}

/**
 * One sub-agent run as a cold Observable of its outcome: a real `runAgent` with the
 * sub-agent's own config and an empty transcript, each of its events handed to `env.emit` as it
 * happens (so the parent counts its spending at once). A failing run is an error outcome (never an
 * error notification); unsubscribing cancels the run.
 */
export function runSubagent(task: SubTask, env: SubrunEnv): Observable<SubrunOutcome> {
  return defer(() => {
    const failed = (text: string, usage = emptyUsage()): SubrunOutcome => ({
      ...task,
      text,
      isError: true,
      usage,
    });
    const config = env.agents[task.agent];
    if (!config) return of(failed(`Unknown sub-agent "${task.agent}".`));
    const depth = env.lineage?.depth ?? 0;
    if (depth + 1 > env.maxDepth) {
      return of(
        failed(
          `Sub-agent "${task.agent}" was not started: sub-agents may nest ${env.maxDepth} level(s) deep ` +
            '(maxDepth) and this call is already at that depth. Do the task yourself.',
        ),
      );
    }
    if (env.lineage && !env.lineage.claimSubrun(env.maxSubRuns)) {
      return of(
        failed(
          `Sub-agent "${task.agent}" was not started: this run already used its ${env.maxSubRuns} sub-runs ` +
            '(maxSubRuns). Do the rest yourself.',
        ),
      );
    }
    const runId = `${env.parentRunId}/${env.parentCallId}/${task.index}`;
    const subrun = { agent: task.agent, runId };
    let usage = emptyUsage();
    let end: AgentEndEvent | undefined;
    const { description: _description, ...runConfig } = config;
    const approver = config.approver ?? env.approver(task.index);
    const see = (event: AgentEvent) => {
      const spent = spentUsage(event);
      if (spent) usage = addUsage(usage, spent);
      if (event.type === 'agent-end') end = event;
      env.emit(subrun, event);
    };
    const run$ = runAgent({
      scheduler: env.scheduler,
      ...runConfig,
      prompt: task.task,
      runId,
      ...(env.lineage ? { lineage: env.lineage } : {}),
      ...(env.signal ? { signal: env.signal } : {}),
      ...(approver ? { approver } : {}),
    });
    return concat(
      run$.pipe(tap(see), ignoreElements()),
      defer(() => of(outcomeOf(task, end, usage))),
    ).pipe(
      catchError((error: unknown) =>
        of(failed(`Sub-agent "${task.agent}" failed: ${errorMessage(error)}`, usage)),
      ),
    );
  });
}

function outcomeOf(task: SubTask, end: AgentEndEvent | undefined, seen: Usage): SubrunOutcome {
  if (!end)
    return {
      ...task,
      text: `Sub-agent "${task.agent}" ended without an answer.`,
      isError: true,
      usage: seen,
    };
  const last = [...end.messages].reverse().find((m) => m.role === 'assistant');
  const answer = assistantText(last).trim();
  const outcome: SubrunOutcome = {
    ...task,
    text: answer,
    isError: false,
    usage: end.usage,
    reason: end.reason,
  };
  if (!answer) {
    // Say what its last tools answered (a rejection's reason…): the parent can act on it.
    const lastResults = end.messages
      .slice(end.messages.lastIndexOf(last as AgentMessage) + 1)
      .flatMap((m) => (m.role === 'tool' ? [`${m.toolName}: ${contentText(m)}`] : []));
    const results = lastResults.length ? ` Its last tool results: ${lastResults.join('; ')}` : '';
    outcome.text = `Sub-agent "${task.agent}" stopped (${end.reason}) without an answer: ${end.signal.message}${results}`;
    outcome.isError = true;
  } else if (end.reason !== 'completed') {
    outcome.text = `${answer}\n\n[Sub-agent "${task.agent}" stopped early (${end.reason}): ${end.signal.message}]`;
  }
  return outcome;
}
