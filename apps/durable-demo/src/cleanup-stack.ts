/**
 * What the demo started, to stop in reverse order exactly once — at the end, on an error, or
 * on Ctrl-C, whichever comes first. A step that fails is reported and the others still run.
 *
 * @example
 * const cleanup = new CleanupStack((line) => console.error(line));
 * const pg = await startPostgres();
 * cleanup.push('PostgreSQL', () => pg.stop());
 * await cleanup.run();
 */
export class CleanupStack {
  private readonly steps: { name: string; stop: () => Promise<void> }[] = [];
  private running: Promise<string[]> | undefined;

  constructor(private readonly report: (line: string) => void) {}

  push(name: string, stop: () => Promise<void>): void {
    if (this.running) {
      // Started while stopping (Ctrl-C during start-up): stop it too.
      void stop().catch(() => undefined);
      return;
    }
    this.steps.push({ name, stop });
  }

  get stopping(): boolean {
    return this.running !== undefined;
  }

  /** Stops everything, last started first; resolves with the names of what was stopped. */
  run(): Promise<string[]> {
    this.running ??= (async () => {
      const stopped: string[] = [];
      for (const step of this.steps.reverse()) {
        try {
          await step.stop();
          stopped.push(step.name);
        } catch (error) {
          this.report(`Could not stop ${step.name}: ${(error as Error)?.message ?? String(error)}`);
        }
      }
      return stopped;
    })();
    return this.running;
  }
}
