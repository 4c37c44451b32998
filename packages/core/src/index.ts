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
export {
  isEmptyAssistant,
  repairMessageSequence,
  validateMessageSequence,
} from './messages/message-sequence.js';
export type { MessageSequenceIssue } from './messages/message-sequence.js';
export { convertToModelMessages, isModelVisible } from './messages/convert-to-model.js';

// Model
export type {
  ChatModel,
  ChatRequest,
  JSONSchema,
  ResponseFormat,
  SystemBlock,
  ThinkingLevel,
  ToolChoice,
  ToolSpec,
} from './model/chat-model.js';
export type { ModelEvent, ModelEventType } from './model/model-event.js';
export { fallbackModel } from './model/fallback-model.js';
export type { FallbackEvent, FallbackModel, FallbackModelOptions } from './model/fallback-model.js';
export { swappableModel } from './model/swappable-model.js';
export type { SwappableModel } from './model/swappable-model.js';
export { failoverReason, isFailoverEligible } from './model/failover-reason.js';
export type { FailoverReason } from './model/failover-reason.js';
export { portableTranscript } from './model/portable-transcript.js';

// Errors
export { RxAgentError } from './errors/rxagent-error.js';
export { ProviderError } from './errors/provider-error.js';
export type { ProviderErrorInit } from './errors/provider-error.js';
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
  InvalidModelEventError,
  InvalidTranscriptError,
  RetriesExhaustedError,
  StopGuardEscalationError,
} from './errors/agent-errors.js';
export { ContextCompactionError } from './errors/context-errors.js';
export { AgentStop } from './errors/agent-stop.js';
export { PipelineError } from './errors/pipeline-error.js';
export { serializeError } from './errors/serialize-error.js';
export type { SerializedError } from './errors/serialize-error.js';

// Events
export type {
  AgentEndEvent,
  AgentEvent,
  AgentEventType,
  AgentStartEvent,
  ApprovalEndEvent,
  ApprovalRequestEvent,
  CompactionEvent,
  MessageDelta,
  MessageEndEvent,
  MessageStartEvent,
  MessageUpdateEvent,
  RetryEvent,
  StepResult,
  ToolEndEvent,
  ToolResult,
  ToolStartEvent,
  ToolUpdateEvent,
  TurnEndEvent,
  TurnStartEvent,
  OutputUpdateEvent,
  WarningEvent,
} from './events/agent-event.js';
export type { ContextUsageEvent, SummaryStartEvent, SummaryUpdateEvent } from './events/context-events.js';

// Stop conditions
export type { StopReason, StopSignal } from './stop/stop-signal.js';
export { stopSignal } from './stop/stop-signal.js';
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

// Cost
export { modelPrice, usageCost } from './cost/model-price.js';
export type { ModelPrice, PriceTable } from './cost/model-price.js';
export { MODEL_PRICES, PRICES_CHECKED_ON } from './cost/model-prices.js';

// Structured output
export { StructuredOutputError } from './errors/structured-output-error.js';
export type { InferOutput, OutputSchema } from './output/output-schema.js';
export type { OutputMode } from './output/output-mode.js';
export type { AgentEndEventOf, AgentEventOf } from './output/typed-events.js';
export { toStrictJsonSchema } from './output/strict-json-schema.js';
export { and, not, or } from './stop/combinators.js';
export { evaluateStopCondition } from './stop/evaluate-stop-condition.js';

// Tools
export { isJsonSchemaParameters, jsonSchema, tool } from './tools/tool.js';
export type {
  AnyTool,
  InferToolArgs,
  JsonSchemaParameters,
  RichToolOutput,
  Tool,
  ToolContext,
  ToolDefinition,
  ToolParameters,
} from './tools/tool.js';
export type {
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  GateDecision,
  ToolGate,
  ToolMiddleware,
} from './tools/tool-hooks.js';
export type { ApprovalVerdict } from './tools/approval-decision.js';
export type { ElicitationAnswer, ElicitationAsk, Elicitor } from './elicitation/elicitation-types.js';
export type { ElicitationField, ElicitationSchema } from './elicitation/elicitation-types.js';
export type { ElicitationRequest, ElicitationResponse } from './elicitation/elicitation-types.js';
export type { ElicitationValues } from './elicitation/elicitation-types.js';
export { checkElicitationAnswer, elicitationSchemaProblem } from './elicitation/check-elicitation.js';
export type { ElicitationEndEvent, ElicitationRequestEvent } from './events/elicitation-events.js';
export type { PendingElicitation } from './state/reduce-elicitation.js';
export type { ElicitationReply } from './agent/agent-elicitation.js';
export {
  toToolSpec,
  toolParametersJsonSchema,
  validateToolCall,
  validateWithSchema,
} from './tools/validate-args.js';
export type { ArgumentIssue } from './tools/validate-args.js';
export { toToolResult } from './tools/tool-output.js';
export { activatedTools, TOOL_SEARCH_NAME, withToolSearch } from './tools/tool-search.js';
export type { ToolSearchOptions } from './tools/tool-search.js';

// The loop
export { runAgent } from './loop/run-agent.js';
export type { ModelCallOptions, Pipeline, RetryBackoff, RunAgentConfig } from './loop/run-config.js';
export type { InstrumentedRun, RunInstrument, ToolScopeCall } from './loop/run-instrument.js';
export type { InstrumentedRequest } from './loop/instrumented-request.js';
export { attachInstrument } from './loop/attach-instrument.js';
export { Turn } from './loop/turn.js';
export type { TurnContextUpdate } from './loop/turn.js';
export { isTurn } from './loop/loop-item.js';
export type { LoopItem, LoopOperator } from './loop/loop-item.js';
export type { RunFacts, SteeringQueue } from './loop/run-facts.js';
export { MessageQueue, toUserMessage } from './loop/message-queue.js';
export type { UserInput } from './loop/message-queue.js';
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

// Context
export type {
  CompactionInfo,
  ContextCommit,
  ContextManager,
  ContextManagerContext,
  ContextProgress,
  ContextProjection,
} from './context/context-manager.js';
export type { ContextUsage } from './context/context-usage.js';

// State
export { initialAgentState, isTerminal } from './state/agent-state.js';
export type { ActiveTool, AgentState, PendingApproval, Phase } from './state/agent-state.js';
export { reduceAgentState } from './state/reduce-agent-state.js';
export { closeTranscript, terminate } from './state/terminate.js';
export { withState } from './state/with-state.js';
export { foldRun } from './state/fold-run.js';
export type { FoldRunOptions } from './state/fold-run.js';
export type { RunWithState } from './state/with-state.js';
export { StateObservable } from './state/state-observable.js';
export { selectPendingTools, selectPhase, selectState, selectUsage } from './state/selectors.js';

// Agent
export { Agent } from './agent/agent.js';
export type { AgentConfig, AgentListener, AgentRunResult, QueueOutcome } from './agent/agent.js';
export { parseTranscript } from './agent/import-messages.js';
export type { AgentResource } from './agent/agent-resource.js';

// Replay
export { recordRun } from './replay/record-run.js';
export type { RecordedEvent } from './replay/record-run.js';
export { foldEvents, replayRun } from './replay/replay-run.js';
export type { ReplayOptions } from './replay/replay-run.js';

// Utilities
export { redactSecret } from './util/redact-secret.js';

// Run results and streams
export { runResult, toResult } from './results/run-result.js';
export type { RunResult } from './results/run-result.js';
export { eachEvent } from './results/each-event.js';
export type { EachEventOptions } from './results/each-event.js';
export {
  EventBufferOverflowError,
  NoRunResultError,
  RemoteRunError,
  RunReleasedError,
  SSEConnectionError,
} from './results/result-errors.js';
export { shareRun } from './streams/share-run.js';
export type { RunHub, SequencedEvent, ShareRunOptions } from './streams/share-run.js';
export { SSE_HEADERS } from './streams/sse-frames.js';
export { sseFrames, sseResponse, toSSEStream } from './streams/to-sse-stream.js';
export type { SSEStreamOptions } from './streams/to-sse-stream.js';
export { sendSSE } from './streams/send-sse.js';
export type { SendSSEOptions, SSEServerResponse } from './streams/send-sse.js';
export { fromSSE } from './streams/from-sse.js';
export type { FromSSEOptions } from './streams/from-sse.js';
export { resumeTranscript } from './replay/resume-transcript.js';
// Guardrails
export type {
  GuardedToolCall,
  GuardrailContext,
  GuardrailInput,
  GuardrailOutput,
  GuardrailVerdict,
  InputGuardrail,
  MaybeAsync,
  OutputGuardrail,
  OutputGuardrailVerdict,
  ToolGuardrail,
  ToolInputVerdict,
  ToolOutputVerdict,
} from './guardrails/guardrail.js';
export type { GuardrailConfig, GuardrailTripMode } from './guardrails/guardrail-config.js';
export type {
  GuardrailEndEvent,
  GuardrailKind,
  GuardrailOutcome,
  GuardrailStartEvent,
} from './events/guardrail-events.js';
export { GuardrailTrippedError } from './errors/guardrail-tripped-error.js';
export { inputGuard } from './operators/input-guard.js';
export type { InputGuardOptions } from './operators/input-guard.js';
export { outputGuard } from './operators/output-guard.js';
export type { OutputGuardOptions } from './operators/output-guard.js';
export { toolGuard } from './operators/tool-guard.js';
export type { RunningGuardrail } from './state/reduce-guardrail.js';

// Sessions
export type { Session, SessionSnapshot } from './session/session.js';
export { InMemorySession } from './session/in-memory-session.js';
export { SessionConflictError } from './errors/session-conflict-error.js';
