// Model combinators and prices: the entry `@rxagent/core/models`.
export { fallbackModel } from './model/fallback-model.js';
export type { FallbackEvent, FallbackModel, FallbackModelOptions } from './model/fallback-model.js';
export { swappableModel } from './model/swappable-model.js';
export type { SwappableModel } from './model/swappable-model.js';
export { failoverReason, isFailoverEligible } from './model/failover-reason.js';
export type { FailoverReason } from './model/failover-reason.js';
export { portableTranscript } from './model/portable-transcript.js';
export { modelPrice, usageCost } from './cost/model-price.js';
export type { ModelPrice, PriceTable } from './cost/model-price.js';
export { MODEL_PRICES, PRICES_CHECKED_ON } from './cost/model-prices.js';
