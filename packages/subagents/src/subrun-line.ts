import { assistantText, type AgentEvent } from '@rxagent/core';
import type { SubrunEvent } from '@rxagent/core/events';

/** One line, at most `max` characters. */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function argsLine(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args) ?? '';
  } catch {
    text = '';
  }
  return oneLine(text, 80);
}

function eventLine(agent: string, event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'agent-start':
      return `${agent} started`;
    case 'turn-start':
      return `${agent} · step ${event.step}`;
    case 'tool-start':
      return oneLine(`${agent} → ${event.toolName} ${argsLine(event.args)}`);
    case 'tool-end':
      return `${agent} ← ${event.toolName}${event.isError ? ' failed' : ''}`;
    case 'message-end': {
      if (event.message.role !== 'assistant') return undefined;
      const text = assistantText(event.message);
      return text.trim() ? oneLine(`${agent}: ${text}`) : undefined;
    }
    case 'agent-end':
      return `${agent} done (${event.reason}, ${event.steps} steps, ${event.usage.totalTokens} tokens)`;
    default:
      return undefined;
  }
}

/**
 * One line of text for a sub-run's event, for a terminal or a log — `scout › helper → read
 * {"path":"a.ts"}` — or undefined for events not worth a line (deltas, message starts…). The
 * numbers a view shows (steps, tokens) come from the state fold (`state.subruns`), not from here.
 *
 * @example
 * run$.subscribe((e) => { const line = e.type === 'subrun' ? subrunLine(e) : undefined; if (line) console.log(line); });
 */
export function subrunLine(event: SubrunEvent): string | undefined {
  const agents = event.path.map((s) => s.agent);
  const line = eventLine(agents[agents.length - 1] ?? 'sub-agent', event.event);
  if (!line) return undefined;
  return agents.length > 1 ? `${agents.slice(0, -1).join(' › ')} › ${line}` : line;
}
