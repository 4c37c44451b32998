// The public surface of @rxagent/openai. Each symbol is documented (with an example) where it is defined.
export { openai } from './openai.js';
export type { OpenAIApi, OpenAIOptions } from './openai-options.js';
export { DEFAULT_IDLE_TIMEOUT_MS } from './openai-client.js';
export { OpenAIChatModel } from './openai-chat-model.js';
export { OpenAIResponsesModel } from './openai-responses-model.js';
export { convertToOpenAIChatMessages } from './convert-to-openai-chat-messages.js';
export { convertToOpenAIResponsesInput } from './convert-to-openai-responses-input.js';
export { openAIChatBody } from './openai-chat-request.js';
export { openAIResponsesBody } from './openai-responses-request.js';
export { mapOpenAIFinishReason, mapOpenAIIncompleteReason } from './map-openai-finish-reason.js';
export { mapOpenAIChatUsage, mapOpenAIResponsesUsage } from './map-openai-usage.js';
export { classifyOpenAIError } from './openai-error.js';
export type { ErrorContext, OpenAIErrorPayload } from './openai-error.js';
export { IMAGE_OMITTED_TEXT } from './openai-request-parts.js';
export { openaiMcpServer } from './openai-mcp-server.js';
export type { OpenAIMcpServerOptions } from './openai-mcp-server.js';
export type { McpApprovalArgs } from './mcp-approval.js';
