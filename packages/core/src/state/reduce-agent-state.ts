import type { AgentEvent, ToolOutcome } from '../events/agent-event.js';
import { addUsage } from '../messages/usage.js';
import type { AgentState } from './agent-state.js';
import { reduceElicitation } from './reduce-elicitation.js';
import { reduceGuardrail } from './reduce-guardrail.js';
import { endSubruns, reduceSubruns } from './reduce-subrun.js';
import { withOutcome } from './outcome-record.js';
import { spentUsage } from './spent-usage.js';
import { appendMessages } from './transcript-log.js';
import { dropRunningTools } from './drop-running-tools.js';

/**
 * A shallow copy of the state, written out field by field: object spread costs ~30x more in
 * V8, and the fold runs once per streamed delta.
 */
function copy(s: AgentState): AgentState {
  return {
    phase: s.phase,
    step: s.step,
    runId: s.runId,
    messages: s.messages,
    streamingMessage: s.streamingMessage,
    pendingToolCalls: s.pendingToolCalls,
    activeTools: s.activeTools,
    finishedTools: s.finishedTools,
    toolOutcomes: s.toolOutcomes,
    pendingApprovals: s.pendingApprovals,
    pendingElicitations: s.pendingElicitations,
    usage: s.usage,
    stopReason: s.stopReason,
    stopSignal: s.stopSignal,
    error: s.error,
    isRunning: s.isRunning,
    retries: s.retries,
    output: s.output,
    guardrails: s.guardrails,
    lastGuardrailVerdict: s.lastGuardrailVerdict,
    contextUsage: s.contextUsage,
    compacting: s.compacting,
    subruns: s.subruns,
  };
}

/**
 * The pure state fold: `(state, event) → state`, like an NgRx reducer. Events that change
 * nothing return the same object (so `distinctUntilChanged` works). A streamed delta costs
 * O(delta) (the partial message is taken as it is) and a new message O(1) amortised: the
 * transcript is a read-only view of an append-only log, never copied per message. An
 * `agent-start` that carries the run's starting transcript (`messages`) starts from it.
 *
 * @example
 * const state = recordedEvents.reduce(reduceAgentState, initialAgentState());
 */
export function reduceAgentState(state: AgentState, event: AgentEvent): AgentState {
  let next: AgentState;
  switch (event.type) {
    case 'message-update':
      next = copy(state);
      next.streamingMessage = event.message;
      return next;
    case 'agent-start':
      next = copy(state);
      next.phase = 'starting';
      next.step = 0;
      next.runId = event.runId;
      // The run's own starting transcript (prior messages, repaired) replaces the one we had.
      if (event.messages) next.messages = event.messages;
      next.streamingMessage = undefined;
      next.pendingToolCalls = [];
      next.activeTools = [];
      next.finishedTools = {};
      next.toolOutcomes = {};
      next.pendingApprovals = [];
      next.pendingElicitations = [];
      next.stopReason = undefined;
      next.stopSignal = undefined;
      next.error = undefined;
      next.isRunning = true;
      next.retries = 0;
      next.output = undefined;
      next.guardrails = [];
      next.lastGuardrailVerdict = undefined;
      next.compacting = undefined;
      next.subruns = {};
      return next;
    case 'turn-start':
      next = copy(state);
      next.phase = 'llm-in-flight';
      next.step = event.step;
      return next;
    case 'message-start':
      if (event.message.role !== 'assistant') return state;
      next = copy(state);
      next.streamingMessage = event.message;
      return next;
    case 'message-end': {
      const message = event.message;
      next = copy(state);
      next.messages = appendMessages(state.messages, message);
      if (message.role === 'tool' && message.toolCallId in state.finishedTools) {
        const { [message.toolCallId]: _done, ...finishedTools } = state.finishedTools;
        next.finishedTools = finishedTools;
      }
      if (message.role === 'assistant') {
        // Eager calls may have started while it streamed: their tools run on.
        if (message.stopReason === 'aborted') dropRunningTools(state, next);
        else next.phase = state.pendingToolCalls.length > 0 ? 'tool-executing' : 'step-finished';
        next.streamingMessage = undefined;
        next.finishedTools = {};
        if (message.usage) next.usage = addUsage(state.usage, message.usage);
      }
      if (message.role === 'tool' && message.usage) next.usage = addUsage(state.usage, message.usage);
      return next;
    }
    case 'tool-start':
      if (state.pendingToolCalls.includes(event.toolCallId)) return state;
      next = copy(state);
      // An eager call starts while the model still streams: the phase stays llm-in-flight.
      if (state.phase !== 'llm-in-flight') next.phase = 'tool-executing';
      next.pendingToolCalls = [...state.pendingToolCalls, event.toolCallId];
      next.activeTools = [
        ...state.activeTools,
        { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args },
      ];
      return next;
    case 'tool-update':
      if (event.kind !== 'progress') return state;
      next = copy(state);
      next.activeTools = state.activeTools.map((t) =>
        t.toolCallId === event.toolCallId ? { ...t, progress: event.progress } : t,
      );
      return next;
    case 'tool-end': {
      // Logs recorded before `outcome` existed say only whether it was an error.
      const outcome = (event.outcome as ToolOutcome | undefined) ?? (event.isError ? 'failed' : 'executed');
      next = copy(state);
      next.subruns = endSubruns(state.subruns, event.toolCallId, outcome);
      next.toolOutcomes = withOutcome(state.toolOutcomes, event.toolCallId, outcome);
      next.pendingToolCalls = state.pendingToolCalls.filter((id) => id !== event.toolCallId);
      next.activeTools = state.activeTools.filter((t) => t.toolCallId !== event.toolCallId);
      next.finishedTools = { ...state.finishedTools, [event.toolCallId]: event.result };
      // A call that ended took its unanswered questions with it.
      if (state.pendingElicitations.length > 0)
        next.pendingElicitations = state.pendingElicitations.filter((e) => e.toolCallId !== event.toolCallId);
      return next;
    }
    case 'approval-request':
      next = copy(state);
      next.pendingApprovals = [
        ...state.pendingApprovals,
        { toolCallId: event.toolCallId, toolName: event.toolName, args: event.args },
      ];
      return next;
    case 'approval-end':
      next = copy(state);
      next.pendingApprovals = state.pendingApprovals.filter((a) => a.toolCallId !== event.toolCallId);
      return next;
    case 'retry':
      // The failed attempt's eager calls were aborted: they never end.
      next = dropRunningTools(state, copy(state));
      next.streamingMessage = undefined;
      next.retries = state.retries + 1;
      return next;
    case 'turn-end':
      // Nothing runs past its turn (an eager call its message did not keep).
      return state.pendingToolCalls.length > 0 ? dropRunningTools(state, copy(state)) : state;
    case 'output-update':
      next = copy(state);
      next.output = event.output;
      return next;
    case 'guardrail-start':
    case 'guardrail-end':
      return reduceGuardrail(state, copy(state), event);
    case 'elicitation-request':
    case 'elicitation-end':
      return reduceElicitation(state, copy(state), event);
    case 'summary-start':
      next = copy(state);
      next.compacting = true;
      return next;
    case 'compaction':
      if (!event.usage && !state.compacting) return state;
      next = copy(state);
      next.compacting = undefined;
      if (event.usage) next.usage = addUsage(state.usage, event.usage);
      return next;
    case 'context-usage':
      next = copy(state);
      next.contextUsage = event.usage;
      return next;
    case 'subrun': {
      const subruns = reduceSubruns(state.subruns, event);
      const spent = spentUsage(event);
      if (subruns === state.subruns && !spent) return state;
      next = copy(state);
      next.subruns = subruns;
      if (spent) next.usage = addUsage(state.usage, spent);
      return next;
    }
    case 'agent-end':
      next = copy(state);
      next.compacting = undefined;

      if (event.output !== undefined) next.output = event.output;
      next.phase = 'idle';
      next.streamingMessage = undefined;
      next.stopReason = event.reason;
      next.stopSignal = event.signal;
      next.isRunning = false;
      return next;
    default:
      // summary-update, warning: nothing to fold.
      return state;
  }
}
