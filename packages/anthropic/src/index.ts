export { anthropic } from './anthropic.js';
export type { AnthropicOptions } from './anthropic.js';
export { AnthropicChatModel } from './anthropic-chat-model.js';
export { resolveAnthropicClient } from './anthropic-client.js';
export type { ResolvedAnthropicClient } from './anthropic-client.js';
export { anthropicStreamError, classifyAnthropicError } from './anthropic-error.js';
export type { AnthropicErrorContext } from './anthropic-error.js';
export {
  ANTHROPIC_JSON_INSTRUCTION,
  ANTHROPIC_THINKING_BUDGETS,
  buildAnthropicRequest,
} from './build-anthropic-request.js';
export type { AnthropicRequestBody } from './build-anthropic-request.js';
export { convertToAnthropicMessages } from './convert-to-anthropic-messages.js';
export type { AnthropicPrompt, AnthropicTurn } from './convert-to-anthropic-messages.js';
export { AnthropicEventMapper } from './map-anthropic-event.js';
export type { AnthropicStreamEvent } from './map-anthropic-event.js';
export { mapAnthropicStopReason } from './map-anthropic-stop-reason.js';
export { mapAnthropicUsage } from './map-anthropic-usage.js';
export type { AnthropicTokenCounts } from './map-anthropic-usage.js';
