// The everyday API of rxagent. Families that only some users need have their own entries:
// `@rxagent/core/models` (model combinators, prices), `@rxagent/core/streams` (SSE, shared runs,
// results, recordings), `@rxagent/core/events` (each event's interface), `@rxagent/core/guardrails`,
// `@rxagent/core/context` (for context managers) and `@rxagent/core/provider` (for adapters and
// instruments).

// Messages
export type {
  AgentMessage,
  AssistantMessage,
  AssistantPart,
  Citation,
  CustomMessage,
  FinishReason,
  ImagePart,
  Message,
  ProviderPart,
  SystemMessage,
  TextPart,
  ThinkingPart,
  ToolCallPart,
  ToolResultMessage,
  Usage,
  UserMessage,
} from './messages/types.js';
export { addUsage, emptyUsage } from './messages/usage.js';
export {
  assistantText,
  contentText,
  toolCalls,
  toolErrorResult,
  userMessage,
} from './messages/message-helpers.js';

// Model
export type { ChatModel, ChatRequest, JSONSchema } from './model/chat-model.js';
export type { ModelEvent } from './model/model-event.js';

// Errors
export { RxAgentError } from './errors/rxagent-error.js';
export { ProviderError } from './errors/provider-error.js';
export {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
} from './errors/provider-errors.js';
export {
  AgentBusyError,
  AgentConfigError,
  RetriesExhaustedError,
  StopGuardEscalationError,
} from './errors/agent-errors.js';
export { ContextCompactionError } from './errors/context-errors.js';
export { AgentStop } from './errors/agent-stop.js';
export { PipelineError } from './errors/pipeline-error.js';
export type { SerializedError } from './errors/serialize-error.js';
export { StructuredOutputError } from './output/structured-output-error.js';
export { SessionConflictError } from './errors/session-conflict-error.js';

// Events
export type { AgentEvent, AgentEventType, StepResult, ToolResult } from './events/agent-event.js';

// Stop conditions
export type { StopReason, StopSignal } from './events/stop-signal.js';
export { stopSignal } from './events/stop-signal.js';
export type {
  StopCondition,
  StopContext,
  StopGuard,
  StopGuardContext,
  StopGuardDecision,
} from './stop/stop-condition.js';
export {
  costBudget,
  finishReasonIs,
  hasToolCall,
  stepCountIs,
  timeBudget,
  tokenBudget,
} from './stop/stop-conditions.js';
export type { TokenPrices } from './stop/stop-conditions.js';
export { repeatedToolCalls } from './stop/repeated-tool-calls.js';
export { and, not, or } from './stop/combinators.js';

// Structured output
export type { InferOutput, OutputSchema } from './output/output-schema.js';
export type { OutputMode } from './output/output-mode.js';
export type { AgentEndEventOf, AgentEventOf } from './output/typed-events.js';

// Tools
export { jsonSchema, tool } from './tools/tool.js';
export type { AnyTool, Tool, ToolContext, ToolDefinition } from './tools/tool.js';
export type {
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  GateDecision,
  ToolGate,
  ToolMiddleware,
} from './tools/tool-hooks.js';
export type { ApprovalVerdict } from './tools/approval-decision.js';
export type { ArgumentIssue } from './tools/validate-args.js';
export { withToolSearch } from './tools/tool-search.js';
export type { ToolSearchOptions } from './tools/tool-search.js';

// The loop
export { runAgent } from './loop/run-agent.js';
export { resumeRun } from './loop/resume-run.js';
export type { ResumeRunConfig } from './loop/resume-run.js';
export type { RunSnapshot } from './turn/run-snapshot.js';
export { RunSnapshotError } from './errors/run-snapshot-error.js';
export type { ModelCallOptions, Pipeline, RetryBackoff, RunAgentConfig } from './turn/run-config.js';
export { Turn } from './turn/turn.js';
export type { TurnContextUpdate } from './turn/turn-fields.js';
export { isTurn } from './turn/loop-item.js';
export type { LoopItem, LoopOperator } from './turn/loop-item.js';
export type { RunFacts, SteeringQueue } from './turn/run-facts.js';
export { MessageQueue, toUserMessage } from './turn/message-queue.js';
export type { UserInput } from './turn/message-queue.js';
export { defaultPipeline } from './loop/default-pipeline.js';

// Operators
export { llmStep } from './operators/llm-step.js';
export type { LlmStepOptions } from './operators/llm-step.js';
export { executeTools } from './operators/execute-tools.js';
export type { ExecuteToolsOptions } from './operators/execute-tools.js';
export { stopWhen } from './operators/stop-when.js';
export { followUp, steer } from './operators/steer.js';
export type { SteerOptions } from './operators/steer.js';
export { guardStop } from './operators/guard-stop.js';
export { compactContext } from './operators/compact-context.js';
export { turnOperator } from './operators/turn-operator.js';

// State
export { initialAgentState, isTerminal } from './state/agent-state.js';
export type { ActiveTool, AgentState, PendingApproval, Phase } from './state/agent-state.js';
export { reduceAgentState } from './state/reduce-agent-state.js';
export { withState } from './state/with-state.js';
export { foldRun } from './state/fold-run.js';
export type { FoldRunOptions } from './state/fold-run.js';
export type { RunWithState } from './state/with-state.js';
export { StateObservable } from './state/state-observable.js';
export { selectPendingTools, selectPhase, selectState, selectUsage } from './state/selectors.js';

// Agent
export { Agent } from './agent/agent.js';
export type { AgentConfig, AgentListener, AgentRunResult, QueueOutcome } from './agent/agent-types.js';
export { parseTranscript } from './agent/import-messages.js';
export type { AgentResource } from './agent/agent-resource.js';

// Sessions
export type { Session, SessionSnapshot } from './session/session.js';
export { InMemorySession } from './session/in-memory-session.js';
