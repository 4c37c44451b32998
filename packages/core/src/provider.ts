// What provider adapters need from the core, and users of the agent do not: the entry
// `@rxagent/core/provider`.
export { MessageBuilder } from './model/message-builder.js';
export { isRetryableStatus } from './errors/provider-error.js';
export { redactSecret, secretFreeCause } from './util/redact-secret.js';
export { textToolNames } from './model/text-tool-names.js';
export { reviveProviderError } from './errors/revive-provider-error.js';
