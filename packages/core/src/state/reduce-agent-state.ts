import type { AgentEvent } from '../events/agent-event.js';
import { addUsage } from '../messages/usage.js';
import type { AgentState } from './agent-state.js';

/**
 * The pure state fold: `(state, event) → state`, like an NgRx reducer. Events that change
 * nothing return the same object (so `distinctUntilChanged` works), and a streamed delta
 * costs O(delta): the partial message is taken as it is, never copied with the transcript.
 *
 * @example
 * const state = recordedEvents.reduce(reduceAgentState, initialAgentState());
 */
export function reduceAgentState(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'agent-start':
      return {
        ...state,
        phase: 'starting',
        step: 0,
        runId: event.runId,
        streamingMessage: undefined,
        pendingToolCalls: [],
        activeTools: [],
        finishedTools: {},
        pendingApprovals: [],
        stopReason: undefined,
        stopSignal: undefined,
        error: undefined,
        isRunning: true,
        retries: 0,
      };
    case 'turn-start':
      return { ...state, phase: 'llm-in-flight', step: event.step };
    case 'message-start':
      return event.message.role === 'assistant' ? { ...state, streamingMessage: event.message } : state;
    case 'message-update':
      return { ...state, streamingMessage: event.message };
    case 'message-end': {
      const message = event.message;
      if (message.role === 'tool' && message.toolCallId in state.finishedTools) {
        const { [message.toolCallId]: _done, ...finishedTools } = state.finishedTools;
        return { ...state, messages: [...state.messages, message], finishedTools };
      }
      if (message.role !== 'assistant') return { ...state, messages: [...state.messages, message] };
      return {
        ...state,
        phase: message.stopReason === 'aborted' ? state.phase : 'step-finished',
        messages: [...state.messages, message],
        streamingMessage: undefined,
        finishedTools: {},
        usage: message.usage ? addUsage(state.usage, message.usage) : state.usage,
      };
    }
    case 'tool-start':
      return {
        ...state,
        phase: 'tool-executing',
        pendingToolCalls: [...state.pendingToolCalls, event.toolCallId],
        activeTools: [
          ...state.activeTools,
          { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args },
        ],
      };
    case 'tool-update':
      if (event.kind !== 'progress') return state;
      return {
        ...state,
        activeTools: state.activeTools.map((t) =>
          t.toolCallId === event.toolCallId ? { ...t, progress: event.progress } : t,
        ),
      };
    case 'tool-end':
      return {
        ...state,
        pendingToolCalls: state.pendingToolCalls.filter((id) => id !== event.toolCallId),
        activeTools: state.activeTools.filter((t) => t.toolCallId !== event.toolCallId),
        finishedTools: { ...state.finishedTools, [event.toolCallId]: event.result },
      };
    case 'approval-request':
      return {
        ...state,
        pendingApprovals: [
          ...state.pendingApprovals,
          { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args },
        ],
      };
    case 'approval-end':
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter((a) => a.toolCallId !== event.toolCallId),
      };
    case 'retry':
      return { ...state, streamingMessage: undefined, retries: state.retries + 1 };
    case 'agent-end':
      return {
        ...state,
        phase: 'idle',
        streamingMessage: undefined,
        stopReason: event.reason,
        stopSignal: event.signal,
        isRunning: false,
      };
    case 'turn-end':
    case 'compaction':
    case 'warning':
      return state;
    default:
      return state;
  }
}
