import type { ContextUsage } from '@rxagent/core/context';
import type { Checkpoint } from './checkpoint.js';

/**
 * What the engine holds and last did (for a `/context` view or a dashboard).
 *
 * @example
 * const { usage, filesTouched, lastStrategy }: ContextSnapshot = engine.snapshot();
 */
export interface ContextSnapshot {
  usage?: ContextUsage;
  /** Messages of the transcript last projected, and of the view sent. */
  transcriptMessages: number;
  viewMessages: number;
  /** The checkpoint the views start from, if any. */
  checkpoint?: string;
  /** Tool results whose bodies the last view replaced by a stub. */
  stubbedToolResults: number;
  filesTouched: { read: string[]; modified: string[] };
  lastStrategy?: string;
  /** Messages folded into the checkpoint by the last summary. */
  lastSummarized: number;
}

/**
 * The engine's record of its last projection.
 *
 * @example
 * const last: LastProjection = { usage, transcript: 120, view: 40, stubbed: 3, summarized: 0 };
 */
export interface LastProjection {
  usage: ContextUsage;
  transcript: number;
  view: number;
  stubbed: number;
  strategy?: string;
  summarized: number;
}

/**
 * The snapshot of an engine from its last projection and its checkpoint.
 *
 * @example
 * contextSnapshot(undefined, undefined).transcriptMessages; // 0
 */
export function contextSnapshot(
  last: LastProjection | undefined,
  checkpoint: Checkpoint | undefined,
): ContextSnapshot {
  const files = checkpoint?.files;
  return {
    usage: last?.usage,
    transcriptMessages: last?.transcript ?? 0,
    viewMessages: last?.view ?? 0,
    checkpoint: checkpoint?.summary,
    stubbedToolResults: last?.stubbed ?? 0,
    filesTouched: { read: files?.read() ?? [], modified: files?.modified() ?? [] },
    lastStrategy: last?.strategy,
    lastSummarized: last?.summarized ?? 0,
  };
}
