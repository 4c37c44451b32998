import { tap, type Observable, type ObservableInput } from 'rxjs';
import type {
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextProjection,
} from '../context/context-manager.js';
import type { AgentMessage } from '../messages/types.js';
import { isProjection, progress$ } from '../context/context-progress.js';

/**
 * @internal The context manager's state of an `Agent`'s conversation, kept across its runs
 * (like its transcript): each run's manager gets it at the run's first call and records what
 * each projection returns; a transcript replaced from outside goes through the manager's
 * `sync`. Within a run the state is the turn's (`compactContext`).
 */
export class AgentContextState {
  private state: unknown;

  constructor(private readonly manager: ContextManager) {}

  /** The state now (for a committed compaction). */
  get value(): unknown {
    return this.state;
  }

  /** Keeps `state` (a commit's), then tells the manager the transcript was replaced. */
  replaced(messages: readonly AgentMessage[], state: unknown = this.state): void {
    this.state = this.manager.sync ? this.manager.sync(messages, state) : undefined;
  }

  /** The manager one run uses. */
  forRun(): ContextManager {
    const { manager } = this;
    const withState = (context: ContextManagerContext): ContextManagerContext =>
      context.state === undefined && this.state !== undefined ? { ...context, state: this.state } : context;
    const kept = (value: ContextProjection | ObservableInput<ContextProgress>): Observable<ContextProgress> =>
      progress$(value).pipe(
        tap((p) => {
          if (isProjection(p) && p.state !== undefined) this.state = p.state;
        }),
      );
    const run: ContextManager = {
      project: (messages, context) => kept(manager.project(messages, withState(context))),
    };
    const recover = manager.recoverOverflow?.bind(manager);
    if (recover) {
      run.recoverOverflow = (messages, error, context) => kept(recover(messages, error, withState(context)));
    }
    return run;
  }
}
