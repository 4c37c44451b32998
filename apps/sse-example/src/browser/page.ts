// The script of the example's page (`GET /`, bundled by the server as `/page.js`): a form that
// starts a run (`POST /runs`), then `withState(fromSSE(events))` drives the page — the phase,
// the text as it streams, the tools called — and the final state when the run ends. No DOM
// types: the repo type-checks without them, so the few calls used are described here.
import { fromSSE } from '@rxagent/core/streams';
import { assistantText, withState, type AgentState } from '@rxagent/core';

interface Element {
  textContent: string | null;
  value?: string;
  disabled?: boolean;
  setAttribute(name: string, value: string): void;
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
}
const { document } = globalThis as unknown as { document: { getElementById(id: string): Element | null } };
const byId = (id: string): Element => {
  const found = document.getElementById(id);
  if (!found) throw new Error(`The page has no #${id}.`);
  return found;
};

function render(state: AgentState, tools: string[]): void {
  const last = state.messages.filter((m) => m.role === 'assistant').at(-1);
  byId('phase').textContent = state.phase;
  byId('phase').setAttribute('data-phase', state.phase);
  byId('tools').textContent = tools.join(', ');
  byId('text').textContent = state.streamingMessage
    ? assistantText(state.streamingMessage)
    : assistantText(last);
  byId('usage').textContent = `${state.usage.totalTokens} tokens, step ${state.step}`;
}

async function start(prompt: string): Promise<void> {
  const created = await fetch('/runs', { method: 'POST', body: JSON.stringify({ prompt }) });
  const { events, error } = (await created.json()) as { events?: string; error?: string };
  if (!events) throw new Error(error ?? `POST /runs answered ${created.status}.`);
  const tools: string[] = [];
  const { events$, state$ } = withState(fromSSE(events));
  state$.subscribe((state) => render(state, tools));
  await new Promise<void>((resolve, reject) =>
    events$.subscribe({
      next: (event) => event.type === 'tool-start' && tools.push(event.toolName),
      complete: resolve,
      error: reject,
    }),
  );
}

byId('run').addEventListener('submit', (event) => {
  event.preventDefault();
  const button = byId('start');
  button.disabled = true;
  start(byId('prompt').value ?? '')
    .catch(
      (error: unknown) =>
        (byId('error').textContent = error instanceof Error ? error.message : String(error)),
    )
    .finally(() => (button.disabled = false));
});
