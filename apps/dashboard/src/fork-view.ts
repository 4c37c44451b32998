/**
 * Where a forked run came from, as its card shows it: the dashboard's id and label of the run
 * it was forked from, the run ids of both, the fork point and the kind of edit.
 *
 * @example
 * const view: ForkView = { parentId: 'run-1', parentLabel: 'research #1', parentRunId: '5f0c…', runId: '9a1e…', forkedAt: { step: 1, seq: 13 }, edit: 'tool-result', at: 'the result of call_1' };
 */
export interface ForkView {
  /** The card id of the run it was forked from (`run-1`). */
  parentId: string;
  parentLabel: string;
  /** The parent's run id (`agent-start`'s, the log header's). */
  parentRunId: string;
  /** The fork's own run id. */
  runId: string;
  /** The step whose end it continues from, and the parent's last event before it. */
  forkedAt: { step: number; seq: number };
  /** The kind of edit (`tool-result`, `replace-message`). */
  edit: string;
  /** What was edited, in words (`the result of call_1`, `the answer of step 2`). */
  at: string;
}

/**
 * What the registry adds to a run's snapshot besides its state: whether the dashboard recorded
 * it (so it can be forked and compared), and its lineage when it is a fork.
 *
 * @example
 * registry.add(agent, 'research #1', { owned: true, origin: { forkable: true } });
 */
export interface RunOrigin {
  /** The dashboard recorded the run (`@rxagent/replay`): rows have _Fork here_, _Compare_ lists it. */
  forkable?: boolean;
  fork?: ForkView;
}
