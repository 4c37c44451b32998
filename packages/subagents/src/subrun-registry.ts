/**
 * Depth and count of the sub-runs started under each top-level run, shared by every
 * `subagentTool` (a sub-agent may hold another instance): a sub-run's depth is its parent's
 * plus one, and every sub-run below a top-level run counts against that run's limit.
 */
interface SubrunEntry {
  depth: number;
  root: string;
}

const subruns = new Map<string, SubrunEntry>();
const counts = new Map<string, number>();
/** Top-level runs whose counts are kept (the oldest are forgotten): a bound on memory. */
const MAX_ROOTS = 1000;

/** Where a run sits: depth 0 for a run that is not a sub-run. */
export function positionOf(runId: string): SubrunEntry {
  return subruns.get(runId) ?? { depth: 0, root: runId };
}

/** Counts one more sub-run under `root`; false when that would pass `max`. */
export function claimSubrun(root: string, max: number): boolean {
  const used = counts.get(root) ?? 0;
  if (used >= max) return false;
  counts.delete(root);
  counts.set(root, used + 1);
  if (counts.size > MAX_ROOTS) counts.delete(counts.keys().next().value as string);
  return true;
}

/** Registers a sub-run while it runs; returns its removal. */
export function registerSubrun(runId: string, entry: SubrunEntry): () => void {
  subruns.set(runId, entry);
  return () => subruns.delete(runId);
}
