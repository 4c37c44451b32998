import type { AgentEvent } from '../events/agent-event.js';
import { stopSignal } from '../events/stop-signal.js';
import { abortMarker } from '../messages/abort-marker.js';
import { initialAgentState, type AgentState } from '../state/agent-state.js';
import { closingEvents } from '../state/closing-events.js';
import { reduceAgentState } from '../state/reduce-agent-state.js';
import type { Turn } from '../turn/turn.js';
import type { PassProgress } from './turn-loop.js';

/**
 * How an aborted run ends, read from its state (the one fold, over the turn the abort cut and
 * the events that turn emitted): the events that close the transcript (the partial answer
 * ended, or the open calls' results), the abort marker the model reads next time, then
 * `agent-end { reason: 'user-requested' }` with the run's own messages and its usage.
 *
 * @example
 * for (const event of abortEnding(pass, first, scheduler.now())) subscriber.next(event);
 */
export function abortEnding(pass: PassProgress | undefined, first: Turn, now: number): AgentEvent[] {
  const turn = pass?.turn ?? first;
  let state: AgentState = {
    ...initialAgentState(turn.messages),
    phase: 'llm-in-flight',
    step: turn.step,
    usage: turn.usage,
    isRunning: true,
  };
  for (const event of pass?.events ?? []) state = reduceAgentState(state, event);
  const events = closingEvents(state, now);
  if (!state.streamingMessage) {
    const { provider, modelId } = turn.run.model;
    const phase = events.some((e) => e.type === 'message-end') ? 'tool-use' : 'inference';
    const marker = abortMarker(phase, provider, modelId, now);
    events.push({ type: 'message-start', message: marker }, { type: 'message-end', message: marker });
  }
  for (const event of events) state = reduceAgentState(state, event);
  events.push({
    type: 'agent-end',
    reason: 'user-requested',
    signal: stopSignal('user-requested', 'The run was aborted.', { source: 'signal' }),
    messages: state.messages.slice(turn.run.priorLength),
    usage: state.usage,
    steps: turn.steps.length,
  });
  return events;
}
