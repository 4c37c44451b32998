import type { AgentEvent } from '@rxagent/core';

/**
 * The log key of an event, or `null` for a streaming one (deltas, progress, partial output):
 * those are logged only as they happen and never deduplicated.
 *
 * A run replayed after a crash emits again every event it emitted before the crash, in the
 * same order and with the same content for everything but streaming events, because each
 * model call and tool call comes back from its recorded step. So the n-th event of a type (or
 * the event of a tool call) has the same key in every execution, and the log keeps the first.
 */
export class EventKeys {
  private readonly counts = new Map<string, number>();
  /** A sub-run's events are keyed within the sub-run (its id is the same in every execution). */
  private readonly subruns = new Map<string, EventKeys>();

  keyOf(event: AgentEvent): string | null {
    switch (event.type) {
      case 'subrun': {
        const runId = event.path[event.path.length - 1]?.runId ?? '?';
        let keys = this.subruns.get(runId);
        if (!keys) this.subruns.set(runId, (keys = new EventKeys()));
        const inner = keys.keyOf(event.event);
        return inner === null ? null : `subrun:${runId}:${inner}`;
      }
      case 'message-update':
      case 'output-update':
      case 'summary-update':
      case 'context-usage':
        return null;
      case 'tool-update':
        return event.kind === 'progress' ? null : `tool-update:${event.kind}:${event.toolCallId}`;
      case 'tool-start':
      case 'tool-end':
      case 'approval-request':
      case 'approval-end':
        return `${event.type}:${event.toolCallId}`;
      default: {
        const n = this.counts.get(event.type) ?? 0;
        this.counts.set(event.type, n + 1);
        return `${event.type}#${n}`;
      }
    }
  }
}
