/**
 * Where a run sits among the runs that started it: its depth (0 for a top-level run, 1 for its
 * sub-runs, …), the top-level run's id, and the top-level run's count of sub-runs, shared down
 * the tree so that a limit holds for all of them. Made by the run (`runAgent`), handed to tools as
 * `ctx.lineage`, and passed to a sub-run's config (`lineage`) by tools that run agents of their own.
 *
 * @example
 * if (ctx.lineage && ctx.lineage.depth + 1 > maxDepth) return 'Too deep: do the task yourself.';
 */
export interface RunLineage {
  readonly depth: number;
  readonly rootRunId: string;
  /** Counts one more sub-run under the top-level run; false (nothing counted) when that would pass `max`. */
  claimSubrun(max: number): boolean;
}

/**
 * The lineage of a run: a top-level one when `parent` is undefined, else one level below `parent`
 * (sharing its top-level run's count).
 *
 * @example
 * const lineage = runLineage(runId, config.lineage);
 */
export function runLineage(runId: string, parent?: RunLineage): RunLineage {
  return parent ? new SubLineage(parent) : new TopLineage(runId);
}

// Classes rather than closures: every run holds one for its whole life.

class TopLineage implements RunLineage {
  readonly depth = 0;
  private claimed = 0;

  constructor(readonly rootRunId: string) {}

  claimSubrun(max: number): boolean {
    if (this.claimed >= max) return false;
    this.claimed++;
    return true;
  }
}

class SubLineage implements RunLineage {
  readonly depth: number;
  readonly rootRunId: string;

  constructor(private readonly parent: RunLineage) {
    this.depth = parent.depth + 1;
    this.rootRunId = parent.rootRunId;
  }

  claimSubrun(max: number): boolean {
    return this.parent.claimSubrun(max);
  }
}
