import type { Message, UserMessage } from '@rxagent/core';
import type { Checkpoint } from './checkpoint.js';
import type { LastProjection } from './context-snapshot.js';
import { FileMemory } from './file-operations.js';

/**
 * The engine's checkpoint as plain JSON (its files as two lists).
 *
 * @example
 * const saved: SavedCheckpoint = { summary: '## Goal', files: { read: [], modified: [] }, end: 12, last, message };
 */
export interface SavedCheckpoint {
  summary: string;
  files: { read: string[]; modified: string[] };
  end: number;
  last?: Message;
  message: UserMessage;
}

/**
 * What the meter learnt in this run: the view last sent (its transcript's length and estimate)
 * and the provider's correction of the estimate.
 *
 * @example
 * const meter: MeterState = { correction: 120, reported: 3_400 };
 */
export interface MeterState {
  sent?: { transcriptLength: number; estimate: number };
  correction: number;
  reported: number;
}

/**
 * The engine's per-run state, plain JSON: what `compactContext` keeps on the run's turn
 * (`context.state`) and a snapshot carries, so a resumed or forked run goes on exactly.
 *
 * @example
 * const state: EngineState = { meter: { correction: 0, reported: 0 } };
 */
export interface EngineState {
  /** The engine's own checkpoint (its incremental summary builds on it). */
  checkpoint?: SavedCheckpoint;
  /** The last projection (usage, strategy, sizes). */
  last?: LastProjection;
  meter?: MeterState;
}

/**
 * The engine's state from `context.state` (empty at a run's start).
 *
 * @example
 * const saved = engineState(context.state);
 */
export function engineState(value: unknown): EngineState {
  return typeof value === 'object' && value !== null ? value : {};
}

/**
 * A checkpoint as plain JSON.
 *
 * @example
 * const state: EngineState = { checkpoint: savedCheckpoint(checkpoint) };
 */
export function savedCheckpoint(c: Checkpoint): SavedCheckpoint {
  return {
    summary: c.summary,
    files: { read: c.files.read(), modified: c.files.modified() },
    end: c.end,
    ...(c.last ? { last: c.last } : {}),
    message: c.message,
  };
}

/**
 * A saved checkpoint, to start a projection from.
 *
 * @example
 * const own = saved.checkpoint && checkpointOf(saved.checkpoint);
 */
export function checkpointOf(s: SavedCheckpoint): Checkpoint {
  return {
    summary: s.summary,
    files: FileMemory.empty().withPaths(s.files.read, s.files.modified),
    end: s.end,
    last: s.last,
    message: s.message,
  };
}
