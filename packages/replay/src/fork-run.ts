import type { Observable } from 'rxjs';
import { resumeRun, type AgentEvent, type ResumeRunConfig } from '@rxagent/core';
import { applyEdit, type ForkEdit } from './fork-edit.js';
import { recordedArrivals } from './recorded-messages.js';
import { withRecordedMessages } from './redeliver.js';
import { ForkError } from './replay-errors.js';
import type { ForkLineage } from './run-log-format.js';
import type { LoggedSnapshotInfo, RunLog } from './run-log.js';

/**
 * Where a fork continues from: the end of a step (after its tools), the step whose model asked
 * for a tool call, or the last step done by an event of the log.
 *
 * @example
 * const at: ForkPoint = { toolCallId: 'call_7' };
 */
export type ForkPoint = { step: number } | { toolCallId: string } | { seq: number };

/**
 * Options of `forkRun`.
 *
 * @example
 * forkRun(log, { at: { step: 3 }, edit: { kind: 'system', system: 'Be terse.' }, config: { model, tools } });
 */
export interface ForkOptions {
  at: ForkPoint;
  /** The one change (none: the fork goes on as the original would have, live). */
  edit?: ForkEdit;
  /** The live run's config, as for `resumeRun`: the model and tools the fork calls. */
  config: ResumeRunConfig;
  /** The fork's run id (default a random UUID). */
  runId?: string;
  /**
   * Re-deliver the messages the original got through `steering$` / `followUp$` after the fork
   * point, at the points where they came (default true). Those it got up to the fork point are
   * in the snapshot either way (delivered, or waiting).
   */
  redeliver?: boolean;
}

/**
 * A fork: a live run (its events) that says where it came from.
 *
 * @example
 * const fork$: ForkedRun = forkRun(log, { at: { step: 2 }, config });
 * console.log(fork$.lineage.parentRunId);
 */
export type ForkedRun = Observable<AgentEvent> & { readonly lineage: ForkLineage };

function describe(at: ForkPoint): string {
  return JSON.stringify(at);
}

function findLast<T>(list: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = list.length - 1; i >= 0; i--) if (test(list[i] as T)) return list[i];
  return undefined;
}

/** The snapshot a fork point names. */
function snapshotAt(log: RunLog, at: ForkPoint): LoggedSnapshotInfo {
  const snapshots = log.snapshots;
  if (snapshots.length === 0) {
    throw new ForkError(
      log.header.recorded === 'events'
        ? 'The log holds only events (the run was piped before recordRun): record it straight from runAgent to fork it.'
        : 'The log holds no snapshot: the run stopped before its first step ended.',
    );
  }
  const steps = `the log has steps ${snapshots[0]?.step ?? 1} to ${snapshots.at(-1)?.step ?? 1}`;
  let found: LoggedSnapshotInfo | undefined;
  if ('step' in at) {
    found = findLast(snapshots, (s) => s.step === at.step);
    if (!found) throw new ForkError(`No step ${at.step} to fork at: ${steps}.`);
  } else if ('toolCallId' in at) {
    const asked = log.events.find(
      (e) =>
        e.event.type === 'message-end' &&
        e.event.message.role === 'assistant' &&
        e.event.message.content.some((p) => p.type === 'tool-call' && p.id === at.toolCallId),
    );
    found = asked && snapshots.find((s) => s.afterSeq >= asked.seq);
    if (!found) throw new ForkError(`No step of the log asked for the tool call ${at.toolCallId}: ${steps}.`);
  } else if ('seq' in at) {
    found = findLast(snapshots, (s) => s.afterSeq <= at.seq);
    if (!found) {
      throw new ForkError(
        `No step had ended by event ${at.seq}: the first fork point is after event ${snapshots[0]?.afterSeq ?? 0}.`,
      );
    }
  } else {
    throw new ForkError(`${describe(at)} is not a fork point: use { step }, { toolCallId } or { seq }.`);
  }
  return found;
}

/**
 * Continues a recorded run as a new live run from the snapshot at `at`, with one edit: a tool
 * result replaced, a message added or replaced, the system prompt, model or tools changed (see
 * `ForkEdit`). Everything before the edit is the original's, so the fork's first model request
 * is the original's byte for byte up to the edit (a provider's prompt cache still hits). The fork
 * has its own run id and its lineage (`parentRunId`, `forkedAt`); recorded with `recordRun`, its
 * log's header carries it.
 *
 * The messages the original got through `steering$` / `followUp$` after the fork point come
 * again at the same points (the step, and where in it: see `recordedArrivals`), beside the
 * config's own sources; `redeliver: false` leaves them out. An edit does not replace them.
 *
 * A fork point that does not exist, or an edit that does not fit it, throws a `ForkError` at
 * once, before any model call. The fork is `resumeRun`'s: `config` supplies the model and tools
 * again (a tool the snapshot names and `config` lacks is a `RunSnapshotError` on subscribe).
 *
 * @param log The original run's log (recorded straight from `runAgent`, so it holds snapshots).
 * @param options Where, what edit, and the live run's config.
 * @return The fork's events, with its `lineage`.
 *
 * @example
 * const fork$ = forkRun(readRunLogFile('run.jsonl'), {
 *   at: { toolCallId: 'call_7' },
 *   edit: { kind: 'tool-result', toolCallId: 'call_7', content: 'deploy: ok' },
 *   config: { model, tools },
 * });
 * fork$.subscribe(render);
 */
export function forkRun(log: RunLog, options: ForkOptions): ForkedRun {
  if (!options?.config)
    throw new ForkError('forkRun needs { config } with the model (and tools) the fork calls.');
  const at = options.at;
  if (typeof at !== 'object' || at === null) {
    throw new ForkError(`${String(at)} is not a fork point: use { step }, { toolCallId } or { seq }.`);
  }
  const point = snapshotAt(log, at);
  const runId = options.runId ?? globalThis.crypto.randomUUID();
  const taken = log.snapshot(point.index);
  const { snapshot, config } = applyEdit({ ...taken, runId }, options.config, options.edit);
  const lineage: ForkLineage = {
    runId,
    parentRunId: log.header.runId,
    forkedAt: { step: point.step, seq: point.afterSeq },
    edit: options.edit?.kind ?? 'none',
  };
  const arrivals = options.redeliver === false ? [] : recordedArrivals(log, point.index);
  return Object.assign(resumeRun(snapshot, withRecordedMessages(config, arrivals)), { lineage });
}
