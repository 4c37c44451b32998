import type { AgentEvent } from '../events/agent-event.js';
import type { Usage } from '../messages/types.js';
import { addUsage } from '../messages/usage.js';

/**
 * The usage an event reports as newly spent, by the one rule every count uses (the state fold,
 * a turn's usage, budgets, views): a finished model message's usage (or a tool result's, for a
 * tool that reports what it spent), a compaction's summary call, and — for a `subrun` event —
 * whatever its inner event spent. Undefined for events that spend nothing.
 *
 * @example
 * const spent = spentUsage(event);
 * if (spent) total = addUsage(total, spent);
 */
export function spentUsage(event: AgentEvent): Usage | undefined {
  switch (event.type) {
    case 'message-end': {
      const message = event.message;
      return message.role === 'assistant' || message.role === 'tool' ? message.usage : undefined;
    }
    case 'compaction':
      return event.usage;
    case 'subrun':
      return spentUsage(event.event);
    default:
      return undefined;
  }
}

/**
 * `total` plus what `event` spent (see `spentUsage`); `total` itself when it spent nothing.
 *
 * @example
 * usage = addSpent(usage, event);
 */
export function addSpent<U extends Usage | undefined>(total: U, event: AgentEvent): U | Usage {
  const spent = spentUsage(event);
  if (!spent) return total;
  return total ? addUsage(total, spent) : spent;
}
