import type { ToolOutcome } from '../events/agent-event.js';
import type { SubrunEvent } from '../events/subrun-event.js';
import type { StopReason } from '../events/stop-signal.js';
import type { Usage } from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import { isTerminal, type Phase } from './agent-state.js';
import { spentUsage } from './spent-usage.js';

/**
 * What the state knows of one sub-run, folded from its `subrun` events.
 *
 * @example
 * for (const s of Object.values(state.subruns)) console.log(s.path.join(' › '), s.phase, s.usage.totalTokens);
 */
export interface SubrunState {
  /** The sub-agents from this run's call down to this sub-run, e.g. `['scout', 'helper']`. */
  readonly path: readonly string[];
  /** This run's tool call under which it runs. */
  readonly toolCallId: string;
  readonly phase: Phase;
  /** Its current (1-based) step; 0 before its first model call. */
  readonly step: number;
  /** What it spent (also counted in the run's usage). */
  readonly usage: Usage;
  readonly stopReason?: StopReason;
}

function phaseAfter(event: SubrunEvent['event'], phase: Phase): Phase {
  switch (event.type) {
    case 'agent-start':
      return 'starting';
    case 'turn-start':
      return 'llm-in-flight';
    case 'message-end':
      return event.message.role === 'assistant' && event.message.stopReason !== 'aborted'
        ? 'step-finished'
        : phase;
    case 'tool-start':
      return phase === 'llm-in-flight' ? phase : 'tool-executing'; // an eager call: the model still streams
    case 'agent-end':
      return 'idle';
    default:
      return phase;
  }
}

/**
 * The sub-runs' states after one `subrun` event (the same record when nothing changed, e.g. a
 * streamed delta), keyed by the sub-run's id.
 *
 * @example
 * next.subruns = reduceSubruns(state.subruns, event);
 */
export function reduceSubruns(
  subruns: Readonly<Record<string, SubrunState>>,
  event: SubrunEvent,
): Readonly<Record<string, SubrunState>> {
  const last = event.path[event.path.length - 1];
  if (!last) return subruns;
  const inner = event.event;
  const known = subruns[last.runId];
  const phase = phaseAfter(inner, known?.phase ?? 'starting');
  const spent = spentUsage(inner);
  const step = inner.type === 'turn-start' ? inner.step : (known?.step ?? 0);
  const stopReason = inner.type === 'agent-end' ? inner.reason : known?.stopReason;
  if (known && phase === known.phase && !spent && step === known.step && stopReason === known.stopReason)
    return subruns;
  const next: SubrunState = {
    path: known?.path ?? event.path.map((s) => s.agent),
    toolCallId: event.toolCallId,
    phase,
    step,
    usage: spent ? addUsage(known?.usage ?? emptyUsage(), spent) : (known?.usage ?? emptyUsage()),
    ...(stopReason ? { stopReason } : {}),
  };
  return { ...subruns, [last.runId]: next };
}

/**
 * The sub-runs after the tool call that ran them ended: one that had not ended by itself
 * failed with the call (`error`: the call failed or timed out) or was cut off with it
 * (`cancelled`: the call was cancelled, interrupted, or ended without waiting for it). The same
 * record when no sub-run of that call was still going.
 *
 * @example
 * next.subruns = endSubruns(state.subruns, event.toolCallId, event.outcome);
 */
export function endSubruns(
  subruns: Readonly<Record<string, SubrunState>>,
  toolCallId: string,
  outcome: ToolOutcome,
): Readonly<Record<string, SubrunState>> {
  const isError = outcome === 'failed' || outcome === 'timed-out';
  let next: Record<string, SubrunState> | undefined;
  for (const [runId, s] of Object.entries(subruns)) {
    if (s.toolCallId !== toolCallId || s.phase === 'idle' || isTerminal(s.phase)) continue;
    next ??= { ...subruns };
    next[runId] = { ...s, phase: isError ? 'error' : 'cancelled' };
  }
  return next ?? subruns;
}
