import type { Attributes } from '@opentelemetry/api';
import type { InstrumentedRequest } from '@rxagent/core/provider';
import type { Usage } from '@rxagent/core';
import { GEN_AI, RXAGENT } from './semconv.js';

/**
 * rxagent's provider names as the conventions' `gen_ai.provider.name` spells them (the Gemini
 * API is `gcp.gemini`, Vertex AI `gcp.vertex_ai`); others as they are.
 *
 * @example
 * providerName('google'); // 'gcp.gemini'
 */
export function providerName(provider: string): string {
  if (provider === 'google' || provider === 'gemini') return 'gcp.gemini';
  if (provider === 'vertex' || provider === 'google-vertex') return 'gcp.vertex_ai';
  return provider;
}

/**
 * The `gen_ai.usage.*` counts of a usage record, and the cost when priced; with `reasoning`
 * (a model call: the conventions define it there only), the reasoning tokens when reported.
 */
export function usageAttributes(usage: Usage, reasoning = false): Attributes {
  const attributes: Attributes = {
    [GEN_AI.USAGE_INPUT_TOKENS]: usage.inputTokens,
    [GEN_AI.USAGE_OUTPUT_TOKENS]: usage.outputTokens,
    [GEN_AI.USAGE_CACHE_READ_INPUT_TOKENS]: usage.cacheReadTokens,
    [GEN_AI.USAGE_CACHE_CREATION_INPUT_TOKENS]: usage.cacheWriteTokens,
  };
  if (reasoning && usage.reasoningTokens !== undefined)
    attributes[GEN_AI.USAGE_REASONING_OUTPUT_TOKENS] = usage.reasoningTokens;
  if (usage.costUsd !== undefined) attributes[RXAGENT.COST_USD] = usage.costUsd;
  return attributes;
}

/** The `gen_ai.request.*` and `gen_ai.output.type` of what the run asks of its model, when it says. */
export function requestAttributes(request: InstrumentedRequest | undefined): Attributes {
  const attributes: Attributes = {};
  if (request?.maxTokens !== undefined) attributes[GEN_AI.REQUEST_MAX_TOKENS] = request.maxTokens;
  if (request?.temperature !== undefined) attributes[GEN_AI.REQUEST_TEMPERATURE] = request.temperature;
  if (request?.outputType !== undefined) attributes[GEN_AI.OUTPUT_TYPE] = request.outputType;
  return attributes;
}
