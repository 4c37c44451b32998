import type { SchedulerLike } from 'rxjs';
import { memoryLog, type RunLog } from '@rxagent/replay';
import { forkEditOf, type ForkRequest } from './fork-request.js';
import { forkRunAgent } from './fork-run-agent.js';
import type { ForkView } from './fork-view.js';
import { HttpError } from './http-json.js';
import type { ModelFactory } from './run-factory.js';
import type { RunRecordings } from './run-recordings.js';
import type { RunRegistry } from './run-registry.js';

/**
 * What `DashboardForks` works with.
 *
 * @example
 * new DashboardForks({ registry, recordings, factory: scriptedRunFactory(), scheduler: asyncScheduler });
 */
export interface DashboardForksOptions {
  registry: RunRegistry;
  recordings: RunRecordings;
  /** The dashboard's model factory: a fork gets the model and tools its parent's recipe had. */
  factory: ModelFactory;
  scheduler: SchedulerLike;
}

/**
 * Forks and compares the runs the dashboard recorded. `fork(id, request)` continues run `id`
 * from a tool result or a step's answer with `request.text` in its place (`forkRun`, with the
 * model and tools of the parent's recipe built again), records the fork and shows it as a new
 * run (owned, live, forkable in turn) whose card names its parent. A run the dashboard did not
 * start is 409 (it has no recording); a fork point that does not exist is a `ForkError`.
 *
 * @example
 * const { id, fork } = forks.fork('run-1', { at: { toolCallId: 'call_1' }, text: '0 matches' });
 * const diff = diffRuns(forks.logOf('run-1'), forks.logOf(id));
 */
export class DashboardForks {
  constructor(private readonly options: DashboardForksOptions) {}

  /** Starts the fork and registers it; returns its card id and lineage. */
  fork(parentId: string, request: ForkRequest): { id: string; fork: ForkView } {
    const { registry, recordings, factory, scheduler } = this.options;
    const parent = this.entry(parentId);
    const log = this.logOf(parentId);
    const recording = recordings.get(parentId);
    if (!recording) throw this.notRecorded(parentId);
    const { at, edit, what } = forkEditOf(log, request);
    const recipe = factory({ ...recording.request, scheduler });
    const sink = memoryLog();
    const { agent, lineage } = forkRunAgent({
      log,
      at,
      edit,
      config: {
        model: recipe.model,
        tools: recipe.tools,
        system: recipe.system,
        maxSteps: recipe.maxSteps,
        contextManager: recipe.contextManager,
        prices: recipe.prices,
      },
      sink,
      scheduler,
    });
    const fork: ForkView = {
      parentId,
      parentLabel: parent.label,
      parentRunId: lineage.parentRunId,
      runId: lineage.runId,
      forkedAt: lineage.forkedAt,
      edit: lineage.edit,
      at: what,
    };
    const label = `${parent.label} · fork at step ${lineage.forkedAt.step}`;
    const id = registry.add(agent, label, { owned: true, origin: { forkable: true, fork } });
    recordings.set(id, { log: sink, request: recording.request });
    return { id, fork };
  }

  /** The run's log as it is now: 404 for an unknown run, 409 for one without a recording. */
  logOf(id: string): RunLog {
    this.entry(id);
    if (!this.options.recordings.get(id)) throw this.notRecorded(id);
    const log = this.options.recordings.log(id);
    if (!log) throw new HttpError(409, `Run ${id} has not started yet: try again once it has.`);
    return log;
  }

  /** The run's card label: 404 for an unknown run. */
  labelOf(id: string): string {
    return this.entry(id).label;
  }

  private entry(id: string) {
    const entry = this.options.registry.get(id);
    if (!entry) throw new HttpError(404, `No run "${id}": GET /runs lists them.`);
    return entry;
  }

  private notRecorded(id: string): HttpError {
    return new HttpError(
      409,
      `Run ${id} was not started by this dashboard, so it has no recording to fork or compare: ` +
        'only runs started here (POST /runs) and their forks are recorded.',
    );
  }
}
