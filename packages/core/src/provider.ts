// What provider adapters, instruments and other integrations need from the core, and users of
// the agent do not: the entry `@rxagent/core/provider`.
export { MessageBuilder } from './model/message-builder.js';
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
export type { RateLimitInfo, RateLimitWindow } from './model/rate-limit-info.js';
export { rateLimitFromHeaders } from './limits/rate-limit-headers.js';
export type { RateLimitHeaderReader } from './limits/rate-limit-headers.js';
export { isRetryableStatus } from './errors/provider-error.js';
export type { ProviderErrorInit } from './errors/provider-error.js';
export { InvalidModelEventError, InvalidTranscriptError } from './errors/agent-errors.js';
export { serializeError } from './errors/serialize-error.js';
export { redactSecret, secretFreeCause } from './util/redact-secret.js';
export { textToolNames } from './model/text-tool-names.js';
export { reviveProviderError } from './errors/revive-provider-error.js';
export {
  isEmptyAssistant,
  repairMessageSequence,
  validateMessageSequence,
} from './messages/message-sequence.js';
export type { MessageSequenceIssue } from './messages/message-sequence.js';
export { convertToModelMessages, isModelVisible } from './messages/convert-to-model.js';
export { toStrictJsonSchema } from './output/strict-json-schema.js';
export { isJsonSchemaParameters } from './tools/tool.js';
export type { InferToolArgs, JsonSchemaParameters, RichToolOutput, ToolParameters } from './tools/tool.js';
export {
  toToolSpec,
  toolParametersJsonSchema,
  validateToolCall,
  validateWithSchema,
} from './tools/validate-args.js';
export { toToolResult } from './tools/tool-output.js';
export { activatedTools, TOOL_SEARCH_NAME } from './tools/tool-search.js';
export type { InstrumentedRun, RunInstrument } from './turn/run-instrument.js';
export type { ToolScopeCall } from './tools/tool-scope.js';
export { evaluateStopCondition } from './stop/evaluate-stop-condition.js';
export { runSettings } from './turn/run-settings.js';
export type { RunSettings, ToolSettings } from './turn/run-settings.js';
export { providerEventStream } from './provider/provider-event-stream.js';
export type {
  ChunkMapper,
  ProviderStreamSource,
  StreamErrorContext,
  StreamOpener,
} from './provider/provider-event-stream.js';
export { streamTimeout } from './provider/stream-timeout.js';
export type { StreamTimeoutConfig } from './provider/stream-timeout.js';
export { headerReader, retryAfterMs, retryInfoDelayMs, shouldRetryHeader } from './provider/retry-after.js';
export type { HeaderReader, RetryAfterSource } from './provider/retry-after.js';
export { parseToolArguments } from './provider/parse-tool-arguments.js';
export { describeError, isConnectionCut } from './provider/connection-cut.js';
export { runLineage } from './tools/run-lineage.js';
export type { RunLineage } from './tools/run-lineage.js';
export { spentUsage } from './state/spent-usage.js';
export { runRequirements } from './turn/run-requirements.js';
export type { RunRequirements } from './turn/run-snapshot.js';
export { RUN_SNAPSHOT_VERSION } from './turn/run-snapshot.js';
export { closeTranscript, terminate } from './state/terminate.js';
export type { StartedSource } from './turn/run-facts.js';
export type { OpenedStream } from './provider/provider-event-stream.js';
export type { SerializeErrorOptions } from './errors/serialize-error.js';
export { redactError } from './errors/redact-error.js';
export { checkSessionWrite } from './session/check-session-write.js';
export type { InstrumentedRequest } from './turn/instrumented-request.js';
export { attachInstrument } from './loop/attach-instrument.js';
// What a steering message does to a tool batch (a recording's re-delivery finds where it came).
export { CANCELLED_FOR_STEERING_TEXT, SKIPPED_FOR_STEERING_TEXT } from './operators/tool-batch.js';
