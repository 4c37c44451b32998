import { filter, map, Subject, subscribeOn, take, type SchedulerLike } from 'rxjs';
import type { ApprovalDecision, Approver, ResumeRunConfig } from '@rxagent/core';
import {
  forkRun,
  recordRun,
  type ForkEdit,
  type ForkLineage,
  type ForkPoint,
  type RunLog,
  type RunLogSink,
} from '@rxagent/replay';
import type { DashboardAgent } from './run-registry.js';
import { watchedRunAgent } from './watched-run.js';

interface Decision {
  toolCallId: string;
  approved: boolean;
  reason?: string;
}

/**
 * Options of `forkRunAgent`.
 *
 * @example
 * forkRunAgent({ log, at: { step: 1 }, config: { model, tools }, sink: memoryLog(), scheduler: asyncScheduler });
 */
export interface ForkRunAgentOptions {
  /** The parent's log. */
  log: RunLog;
  at: ForkPoint;
  edit?: ForkEdit;
  /** The fork's model and tools (the dashboard's own, as for the parent). */
  config: ResumeRunConfig;
  /** Where the fork is recorded (so it can be forked and compared in turn). */
  sink: RunLogSink;
  scheduler: SchedulerLike;
}

/**
 * A fork of a recorded run (`forkRun` of `@rxagent/replay`) as a dashboard agent: the fork is
 * recorded to `sink`, its state folded as for any watched run, its approvals decided from the
 * page (the run's approver waits for them: nothing is approved by default) and _Abort_ aborts
 * it. It starts when the registry subscribes, on the scheduler, so every view sees its first
 * event. A wrong fork point or edit throws `ForkError` here, before anything runs.
 *
 * @example
 * const { agent, lineage } = forkRunAgent({ log, at: { toolCallId: 'c1' }, edit, config, sink, scheduler });
 * registry.add(agent, `fork of ${lineage.parentRunId}`, { owned: true });
 */
export function forkRunAgent(options: ForkRunAgentOptions): { agent: DashboardAgent; lineage: ForkLineage } {
  const decisions = new Subject<Decision>();
  const controller = new AbortController();
  const approver: Approver = (request) =>
    decisions.pipe(
      filter((d) => d.toolCallId === request.toolCallId),
      take(1),
      map((d): ApprovalDecision =>
        d.reason === undefined ? d.approved : { approved: d.approved, reason: d.reason },
      ),
    );
  const fork$ = forkRun(options.log, {
    at: options.at,
    ...(options.edit ? { edit: options.edit } : {}),
    config: { ...options.config, approver, signal: controller.signal, scheduler: options.scheduler },
  });
  const recorded$ = recordRun(fork$, options.sink, { scheduler: options.scheduler }).pipe(
    subscribeOn(options.scheduler),
  );
  const agent = watchedRunAgent(recorded$, {
    approve: (toolCallId) => decisions.next({ toolCallId, approved: true }),
    reject: (toolCallId, reason) =>
      decisions.next(
        reason === undefined ? { toolCallId, approved: false } : { toolCallId, approved: false, reason },
      ),
    cancel: () => controller.abort(),
  });
  return { agent, lineage: fork$.lineage };
}
