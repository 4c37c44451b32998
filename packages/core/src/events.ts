// Each event of `AgentEvent` by its own name: the entry `@rxagent/core/events`. (The union,
// `AgentEvent`, is on the main entry; narrow it with `event.type`.)
export type {
  AgentEndEvent,
  AgentStartEvent,
  ApprovalEndEvent,
  ApprovalRequestEvent,
  CompactionEvent,
  MessageDelta,
  MessageEndEvent,
  MessageStartEvent,
  MessageUpdateEvent,
  OutputUpdateEvent,
  RetryEvent,
  ToolEndEvent,
  ToolOutcome,
  ToolStartEvent,
  ToolUpdateEvent,
  TurnEndEvent,
  TurnStartEvent,
  WarningEvent,
} from './events/agent-event.js';
export type { ContextUsageEvent, SummaryStartEvent, SummaryUpdateEvent } from './events/context-events.js';
export type { SubrunEvent, SubrunStep } from './events/subrun-event.js';
export type { SubrunState } from './state/reduce-subrun.js';
