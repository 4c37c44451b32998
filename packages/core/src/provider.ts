// What provider adapters need from the core, and users of the agent do not: the entry
// `@rxagent/core/provider`.
export { MessageBuilder } from './model/message-builder.js';
export { isRetryableStatus } from './errors/provider-error.js';
export { redactSecret, secretFreeCause } from './util/redact-secret.js';
export { textToolNames } from './model/text-tool-names.js';
export { reviveProviderError } from './errors/revive-provider-error.js';
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
