// Runs in the page (bundled by esbuild in the browser test): a run watched over SSE and folded
// with the same `withState` as on the server. No DOM types: the repo type-checks without them.
import { fromSSE } from '@rxagent/core/streams';
import { selectPhase, withState, type AgentState } from '@rxagent/core';

/** What the page reports back to the test. */
export interface WatchedRun {
  state?: Pick<AgentState, 'phase' | 'messages' | 'usage' | 'step' | 'stopReason'>;
  phases: string[];
  events: number;
  error?: string;
}

async function startAndWatch(prompt: string): Promise<WatchedRun> {
  const created = await fetch('/runs', { method: 'POST', body: JSON.stringify({ prompt }) });
  const { events: url } = (await created.json()) as { events: string };
  return new Promise((resolve) => {
    const { events$, state$ } = withState(fromSSE(url, { retryMs: 50 }));
    const phases: string[] = [];
    let events = 0;
    state$.pipe(selectPhase()).subscribe((phase) => phases.push(phase));
    const report = (error?: unknown) => {
      const { phase, messages, usage, step, stopReason } = state$.value;
      resolve({
        state: { phase, messages: [...messages], usage, step, stopReason },
        phases,
        events,
        ...(error === undefined
          ? {}
          : { error: error instanceof Error ? `${error.name}: ${error.message}` : JSON.stringify(error) }),
      });
    };
    const seen = globalThis as unknown as { watchedEvents: number };
    seen.watchedEvents = 0;
    events$.subscribe({
      next: () => (seen.watchedEvents = ++events), // live, for a test that waits on it
      complete: () => report(),
      error: (e: unknown) => report(e),
    });
  });
}

(globalThis as unknown as { startAndWatch: typeof startAndWatch }).startAndWatch = startAndWatch;
