import { assistantText } from '@rxagent/core';
import type { SubrunEvent, SubrunState } from '@rxagent/core/events';
import { describeCall } from './tool-lines.js';

/**
 * The line a tool's progress gets in the terminal.
 *
 * @example
 * progressText('compiling'); // 'compiling'
 */
export function progressText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

function tokens(n: number): string {
  return `${n.toLocaleString('en-US')} tokens`;
}

/**
 * The line a sub-run's event gets in the terminal, its numbers from the state fold
 * (`state.subruns[runId]`, the sub-run's own step and what it spent so far) —
 * `scout · step 2 → read README.md · 1,605 tokens`, `scout done (completed) · 3 steps · 2,727
 * tokens` — or undefined for events not worth a line (deltas, step starts, tool ends: the
 * next line says as much). A nested sub-run is named by its path (`scout › helper`).
 *
 * @example
 * const line = subrunText(event, state.subruns[event.path.at(-1)?.runId ?? '']);
 */
export function subrunText(event: SubrunEvent, subrun: SubrunState | undefined): string | undefined {
  const who = event.path.map((s) => s.agent).join(' › ');
  const step = subrun?.step ?? 0;
  const spent = tokens(subrun?.usage.totalTokens ?? 0);
  const inner = event.event;
  switch (inner.type) {
    case 'agent-start':
      return `${who} started`;
    case 'tool-start':
      return `${who} · step ${step} → ${describeCall(inner.toolName, inner.args)} · ${spent}`;
    case 'message-end': {
      if (inner.message.role !== 'assistant') return undefined;
      const text = assistantText(inner.message).replace(/\s+/g, ' ').trim();
      return text ? `${who} · step ${step}: ${text}` : undefined;
    }
    case 'retry':
      return `${who} · step ${step} ↻ retry ${inner.attempt}: ${inner.error.name}`;
    case 'compaction':
      return `${who} · context compacted (${inner.strategy})`;
    case 'agent-end':
      return `${who} done (${inner.reason}) · ${step} ${step === 1 ? 'step' : 'steps'} · ${spent}`;
    default:
      return undefined;
  }
}
