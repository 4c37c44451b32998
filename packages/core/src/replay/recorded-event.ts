import type { AgentEvent } from '../events/agent-event.js';

/**
 * One recorded event and when it came, in ms since the recording started (what
 * `recordRun(entries)` of `@rxagent/replay` pushes, and `Agent.resume` reads).
 *
 * @example
 * const entry: RecordedEvent = { at: 120, event: { type: 'turn-start', step: 1 } };
 */
export interface RecordedEvent {
  at: number;
  event: AgentEvent;
}
