import type { Subscription } from 'rxjs';
import { readRunLog, type MemoryLog, type RunLog } from '@rxagent/replay';
import type { RunRequest } from './run-factory.js';
import type { RunRegistry } from './run-registry.js';

/**
 * A run the dashboard recorded: its log (`@rxagent/replay`, in memory), and the request its
 * recipe was built from, so a fork gets the same model and tools again.
 *
 * @example
 * const recording: Recording = { log: memoryLog(), request: { index: 0, scenario: 'research' } };
 */
export interface Recording {
  readonly log: MemoryLog;
  readonly request: Omit<RunRequest, 'scheduler'>;
}

/**
 * The recordings of the runs the dashboard started (and of their forks), by card id, each kept
 * until its card is removed. A run added from elsewhere (`addAgent`, a durable run) has none.
 *
 * @example
 * const recordings = new RunRecordings(registry);
 * const log = memoryLog(); // the run's: new Agent({ …, instrument: recordingInstrument(log) })
 * recordings.set(registry.add(agent, 'chat #1'), { log, request: { index: 0 } });
 * recordings.log('run-1')?.events.length;
 */
export class RunRecordings {
  private readonly recordings = new Map<string, Recording>();
  private readonly subscription: Subscription;

  constructor(registry: RunRegistry) {
    this.subscription = registry.updates$.subscribe((update) => {
      if (update.type === 'removed') this.recordings.delete(update.id);
    });
  }

  /** Files a run's recording under its card id. */
  set(id: string, recording: Recording): void {
    this.recordings.set(id, recording);
  }

  /** The run's recording, or undefined when the dashboard did not record it. */
  get(id: string): Recording | undefined {
    return this.recordings.get(id);
  }

  /** The run's log as it is now (a run still going is read up to its last line), or undefined. */
  log(id: string): RunLog | undefined {
    const recording = this.recordings.get(id);
    return recording && recording.log.lines.length > 0 ? readRunLog(recording.log.lines) : undefined;
  }

  /** Stops following removals and forgets every recording. */
  close(): void {
    this.subscription.unsubscribe();
    this.recordings.clear();
  }
}
