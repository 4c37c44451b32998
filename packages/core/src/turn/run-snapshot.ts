import type { StopSignal } from '../events/stop-signal.js';
import type { AgentMessage, Usage, UserMessage } from '../messages/types.js';

/**
 * The version of the snapshot format `turn.snapshot()` writes and `resumeRun` reads.
 *
 * @example
 * if (snapshot.version !== RUN_SNAPSHOT_VERSION) console.warn('written by another rxagent');
 */
export const RUN_SNAPSHOT_VERSION = 1;

/**
 * What a resuming process must supply again, by name: a snapshot holds no functions.
 *
 * @example
 * const needs: RunRequirements = { tools: ['read'], guardrails: ['no-secrets'], contextManager: true, output: false, pipeline: 'default' };
 */
export interface RunRequirements {
  /** The model the run was calling (a resume may call another). */
  readonly model: { readonly provider: string; readonly modelId: string };
  /** The tools offered to the model (the run's, or those `withTools` set). */
  readonly tools: readonly string[];
  /** The names of the run's guardrails (input, output and tool). */
  readonly guardrails: readonly string[];
  /** The run had a context manager (`contextManager`). */
  readonly contextManager: boolean;
  /** The run asked for a structured answer (`output`). */
  readonly output: boolean;
  /** The run's loop body: the default, or the config's own `pipeline`. */
  readonly pipeline: 'default' | 'custom';
}

/**
 * A run frozen at a turn, as plain JSON (`JSON.parse(JSON.stringify(s))` round-trips):
 * everything the run knows — transcript, step, usage, the turn's model message and results when
 * it has them, messages waiting to be delivered, every operator's state — and, by name, what a
 * resuming process must supply again. `resumeRun(snapshot, config)` continues it in any process.
 *
 * @example
 * const snapshot: RunSnapshot = JSON.parse(await readFile('run.json', 'utf8'));
 * resumeRun(snapshot, { model, tools }).subscribe(console.log);
 */
export interface RunSnapshot {
  readonly version: typeof RUN_SNAPSHOT_VERSION;
  readonly runId: string;
  /** The turn's step (1-based). */
  readonly step: number;
  /** The whole transcript as of the turn: the prior messages, then the run's own. */
  readonly messages: readonly AgentMessage[];
  /** How many of `messages` the run started from. */
  readonly priorLength: number;
  /** Where each completed step's model message sits in `messages` (its results follow it). */
  readonly stepIndexes: readonly number[];
  /** Where this turn's model message sits in `messages`, when the turn has one. */
  readonly assistantIndex?: number;
  /** How many results of this turn's calls follow its model message (when its tools ran). */
  readonly toolResultCount?: number;
  readonly usage: Usage;
  /** Messages delivered at the start of the next turn (length recovery, stop guards, retries). */
  readonly next: readonly UserMessage[];
  /** Messages queued for the run but not delivered yet. */
  readonly pending: { readonly steering: readonly UserMessage[]; readonly followUps: readonly UserMessage[] };
  /** Consecutive failures per tool (the breaker). */
  readonly toolErrors: Readonly<Record<string, number>>;
  readonly lengthRecoveries: number;
  /** Each operator's own state, by operator name (`turn.operatorState(name)`). */
  readonly operators: Readonly<Record<string, unknown>>;
  /** The validated final answer, when the run has one. */
  readonly output?: unknown;
  readonly stop?: StopSignal;
  /** Time the run had run (`scheduler.now() - startedAt`) when the snapshot was taken: time budgets go on from it. */
  readonly elapsedMs: number;
  readonly requires: RunRequirements;
}
