/**
 * The OpenTelemetry GenAI semantic-convention names rxagent writes, copied (as the
 * `@opentelemetry/semantic-conventions` README asks of instrumentations for unstable
 * conventions) from its `incubating` entry point, version 1.45.0; `semconv.spec.ts` pins each
 * name to that package. The GenAI conventions have Development status.
 */
export const GEN_AI = {
  OPERATION_NAME: 'gen_ai.operation.name',
  PROVIDER_NAME: 'gen_ai.provider.name',
  REQUEST_MODEL: 'gen_ai.request.model',
  RESPONSE_MODEL: 'gen_ai.response.model',
  RESPONSE_FINISH_REASONS: 'gen_ai.response.finish_reasons',
  RESPONSE_TIME_TO_FIRST_CHUNK: 'gen_ai.response.time_to_first_chunk',
  RESPONSE_ID: 'gen_ai.response.id',
  REQUEST_STREAM: 'gen_ai.request.stream',
  REQUEST_MAX_TOKENS: 'gen_ai.request.max_tokens',
  REQUEST_TEMPERATURE: 'gen_ai.request.temperature',
  OUTPUT_TYPE: 'gen_ai.output.type',
  SYSTEM_INSTRUCTIONS: 'gen_ai.system_instructions',
  TOOL_DESCRIPTION: 'gen_ai.tool.description',
  USAGE_REASONING_OUTPUT_TOKENS: 'gen_ai.usage.reasoning.output_tokens',
  USAGE_INPUT_TOKENS: 'gen_ai.usage.input_tokens',
  USAGE_OUTPUT_TOKENS: 'gen_ai.usage.output_tokens',
  USAGE_CACHE_READ_INPUT_TOKENS: 'gen_ai.usage.cache_read.input_tokens',
  USAGE_CACHE_CREATION_INPUT_TOKENS: 'gen_ai.usage.cache_creation.input_tokens',
  AGENT_NAME: 'gen_ai.agent.name',
  AGENT_ID: 'gen_ai.agent.id',
  CONVERSATION_ID: 'gen_ai.conversation.id',
  TOOL_NAME: 'gen_ai.tool.name',
  TOOL_CALL_ID: 'gen_ai.tool.call.id',
  TOOL_TYPE: 'gen_ai.tool.type',
  TOOL_CALL_ARGUMENTS: 'gen_ai.tool.call.arguments',
  TOOL_CALL_RESULT: 'gen_ai.tool.call.result',
  INPUT_MESSAGES: 'gen_ai.input.messages',
  OUTPUT_MESSAGES: 'gen_ai.output.messages',
  /** Stable (general) attribute: the class of the error that ended the operation. */
  ERROR_TYPE: 'error.type',
} as const;

/** `gen_ai.operation.name` values. */
export const OPERATION = {
  INVOKE_AGENT: 'invoke_agent',
  CHAT: 'chat',
  EXECUTE_TOOL: 'execute_tool',
} as const;

/** rxagent's own attributes and span events (no convention covers them). */
export const RXAGENT = {
  RUN_ID: 'rxagent.run.id',
  STEP: 'rxagent.step',
  STEPS: 'rxagent.steps',
  STOP_REASON: 'rxagent.stop.reason',
  COST_USD: 'rxagent.usage.cost_usd',
  TOOL_IS_ERROR: 'rxagent.tool.is_error',
  EVENT_RETRY: 'rxagent.retry',
  EVENT_FIRST_CHUNK: 'rxagent.first_chunk',
  EVENT_APPROVAL_REQUEST: 'rxagent.approval.request',
  EVENT_APPROVAL_END: 'rxagent.approval.end',
  EVENT_STEERING: 'rxagent.steering',
  EVENT_FOLLOW_UP: 'rxagent.follow_up',
  EVENT_COMPACTION: 'rxagent.compaction',
  EVENT_WARNING: 'rxagent.warning',
  EVENT_STOP: 'rxagent.stop',
  EVENT_CANCELLED: 'rxagent.cancelled',
  GUARDRAIL_NAME: 'rxagent.guardrail.name',
  GUARDRAIL_KIND: 'rxagent.guardrail.kind',
  GUARDRAIL_OUTCOME: 'rxagent.guardrail.outcome',
  GUARDRAIL_REASON: 'rxagent.guardrail.reason',
} as const;
