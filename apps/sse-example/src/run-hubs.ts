import { shareRun, type RunHub } from '@rxagent/core/streams';
import type { AgentEvent } from '@rxagent/core';
import type { Observable } from 'rxjs';

/** Starts a run for a prompt (e.g. `(prompt) => runAgent({ model, tools, prompt })`). */
export type StartRun = (prompt: string) => Observable<AgentEvent>;

/**
 * The live runs of a server, each shared by every client that watches it (`shareRun`): a run
 * starts when it is created and goes on while clients come, go and reconnect.
 *
 * @example
 * const hubs = new RunHubs((prompt) => runAgent({ model, prompt }), { replay: 2000 });
 * const id = hubs.create('What is in this folder?');
 * hubs.get(id)?.join().subscribe();
 */
export class RunHubs {
  private readonly hubs = new Map<string, RunHub>();
  private next = 1;

  constructor(
    private readonly startRun: StartRun,
    private readonly options: { replay?: number; lingerMs?: number } = {},
  ) {}

  /** Creates and starts a run; returns its id. */
  create(prompt: string): string {
    const id = `run-${this.next++}`;
    // Kept a while after its end, so a client reconnecting just then still finds it.
    const hub = shareRun(this.startRun(prompt), { lingerMs: 30_000, ...this.options });
    this.hubs.set(id, hub);
    // Started now, so it runs even before the first client connects; released with its run.
    hub.events$.subscribe({ error: () => undefined });
    return id;
  }

  /** The run's hub, while it is kept (undefined once it ended and no one watches). */
  get(id: string): RunHub | undefined {
    const hub = this.hubs.get(id);
    if (hub?.released) this.hubs.delete(id);
    return hub?.released ? undefined : hub;
  }

  /** Stops every run (at shutdown). */
  stopAll(): void {
    for (const hub of this.hubs.values()) hub.stop();
    this.hubs.clear();
  }
}
