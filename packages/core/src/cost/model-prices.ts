import type { ModelPrice } from './model-price.js';

/**
 * When the built-in prices were last checked against their sources (each row names its
 * source). Prices change: pass `prices` to `runAgent` / `Agent` to add or correct a model.
 *
 * @example
 * console.log(`rxagent prices checked on ${PRICES_CHECKED_ON}`);
 */
export const PRICES_CHECKED_ON = '2026-11-25';

// Sources, as stored copies read on PRICES_CHECKED_ON (US dollars per million tokens, standard
// tier, no batch discount, no regional premium):
const ANTHROPIC_PRICING = 'https://platform.claude.com/docs/en/about-claude/pricing';
const ANTHROPIC_LEGACY_PRICING =
  'https://docs.anthropic.com/en/docs/about-claude/pricing (model and long-context tables)';
const OPUS_5_5 = 'https://platform.claude.com/docs/zh-CN/models/opus-5-5/overview';
const OPUS_5 = 'https://platform.claude.com/docs/about-claude/models/whats-new-opus-5';
const SONNET_5 = 'https://platform.claude.com/docs/zh-CN/models/sonnet-5/overview';
// Sonnet 5.5 (cache hits cut to $0.10 on 2026-10-07) and Haiku 5.5 (two prompt-length bands):
// the pricing page as quoted by the release notes of github.com/kurofune/claudit v1.9.2 (checked
// against the live page on 2026-10-24) and github.com/TheKrush/PromptFuel v1.0.23.
const CLAUDIT_2026_10_24 =
  'https://github.com/kurofune/claudit/releases/tag/v1.9.2 (quoting the Anthropic pricing page)';
const HAIKU_4_5 =
  'https://docs.electronhub.ai/guides/prompt-caching (copy of the Anthropic prompt-caching price table)';
const OPENAI_PRICING = 'https://developers.openai.com/api/docs/pricing';
const OPENAI_5_5 = `${OPENAI_PRICING} as quoted by https://www.morphllm.com/openai-api-pricing (June 2026)`;
const OPENAI_5_4 = `${OPENAI_PRICING} as quoted by https://benchlm.ai/blog/posts/openai-api-pricing (April 2026)`;
const OPENAI_LONG =
  'https://hivebook.wiki/wiki/openai-api-models-current (GPT-5.4: 2× input above 272K, 1.5× output)';
const OPENAI_OLDER =
  'https://huggingface.co/SciCode/dataset-builder/blob/main/data3/show_pricing.py and https://docs.rs/crate/adk-model/latest/source/src/openai/pricing.rs (cached-input discounts: GPT-5 90 %, GPT-4.1 75 %, GPT-4o 50 %)';

// Gemini: the Gemini API pricing page as quoted by https://www.morphllm.com/gemini-api-pricing
// (standard tier, prompts up to 200K tokens, read on 2026-11-28); the >200K tiers and the
// implicit-cache rate (0.1× input on Gemini 2.5 and later) as quoted by
// https://deploybase.ai/articles/gemini-api-pricing and https://aifreeapi.com/en/posts/gemini-api-pricing-2026
// (2.5 Pro caching: discuss.ai.google.dev/t/question-about-gemini-api-caching-pricing/107349).
const GOOGLE_PRICING = 'https://ai.google.dev/gemini-api/docs/pricing (checked 2026-11-28)';

/** Gemini's ratios: cache hits 0.1× input (0.25× on Gemini 2.0); Gemini has no cache-write charge per request. */
function gemini(input: number, output: number, cacheRead = input * 0.1): ModelPrice {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheReadPerMillion: cacheRead,
    cacheWritePerMillion: 0,
    source: GOOGLE_PRICING,
  };
}

/** Pro models: prompts above 200K tokens pay the long-context rates on the whole request. */
function geminiPro(input: number, output: number, longInput: number, longOutput: number): ModelPrice {
  return {
    ...gemini(input, output),
    longContext: { aboveInputTokens: 200_000, ...gemini(longInput, longOutput) },
  };
}

/** Anthropic's usual ratios: 5-minute cache writes 1.25× input, cache hits 0.1× input. */
function claude(input: number, output: number, source: string, cacheRead = input * 0.1): ModelPrice {
  return {
    inputPerMillion: input,
    outputPerMillion: output,
    cacheReadPerMillion: cacheRead,
    cacheWritePerMillion: input * 1.25,
    source,
  };
}

function gpt(input: number, cachedInput: number | undefined, output: number, source: string): ModelPrice {
  const price: ModelPrice = { inputPerMillion: input, outputPerMillion: output, source };
  if (cachedInput !== undefined) price.cacheReadPerMillion = cachedInput;
  return price;
}

const sonnet4 = (): ModelPrice => ({
  ...claude(3, 15, ANTHROPIC_LEGACY_PRICING),
  // Prompts above 200K tokens (1M-context beta): every token of that request at these rates.
  longContext: { aboveInputTokens: 200_000, ...claude(6, 22.5, ANTHROPIC_LEGACY_PRICING) },
});

/**
 * The built-in price table: current OpenAI, Anthropic and Google (Gemini) models by API model id (dated
 * snapshots such as `claude-sonnet-4-5-20250929` or `gpt-4o-2024-08-06` find their base id).
 * Anthropic cache writes are priced at the 5-minute rate (`Usage` does not split the 1-hour
 * ones). Read-only: pass `prices` in the run config to add or override a model.
 *
 * @example
 * MODEL_PRICES['anthropic']?.['claude-sonnet-5-5']?.outputPerMillion; // 10
 */
export const MODEL_PRICES: Readonly<Record<string, Readonly<Record<string, ModelPrice>>>> = {
  anthropic: {
    'claude-fable-5-1': claude(10, 50, ANTHROPIC_PRICING, 0.25),
    'claude-fable-5': claude(10, 50, ANTHROPIC_PRICING, 1),
    'claude-opus-5-5': claude(4, 20, OPUS_5_5, 0.2),
    'claude-opus-5': claude(5, 25, OPUS_5),
    'claude-opus-4-8': claude(5, 25, ANTHROPIC_PRICING),
    'claude-opus-4-7': claude(5, 25, ANTHROPIC_PRICING),
    'claude-opus-4-6': claude(5, 25, ANTHROPIC_PRICING),
    'claude-opus-4-5': claude(5, 25, ANTHROPIC_PRICING),
    'claude-opus-4-1': claude(15, 75, ANTHROPIC_PRICING),
    'claude-opus-4-0': claude(15, 75, ANTHROPIC_PRICING),
    'claude-opus-4': claude(15, 75, ANTHROPIC_PRICING),
    'claude-sonnet-5-5': claude(2, 10, CLAUDIT_2026_10_24, 0.1),
    'claude-sonnet-5': claude(2, 10, SONNET_5),
    'claude-sonnet-4-6': claude(3, 15, ANTHROPIC_PRICING),
    'claude-sonnet-4-5': sonnet4(),
    'claude-sonnet-4-0': sonnet4(),
    'claude-sonnet-4': sonnet4(),
    'claude-3-7-sonnet': claude(3, 15, ANTHROPIC_LEGACY_PRICING),
    'claude-haiku-5-5': {
      ...claude(0.1, 0.5, CLAUDIT_2026_10_24),
      // Prompts above 100K tokens (cache reads and writes included): every token at these rates.
      longContext: { aboveInputTokens: 100_000, ...claude(0.5, 2.5, CLAUDIT_2026_10_24) },
    },
    'claude-haiku-4-5': claude(1, 5, HAIKU_4_5),
    'claude-3-5-haiku': { ...claude(0.8, 4, ANTHROPIC_LEGACY_PRICING), cacheWritePerMillion: 1 },
    'claude-3-haiku': { ...claude(0.25, 1.25, ANTHROPIC_LEGACY_PRICING, 0.03), cacheWritePerMillion: 0.3 },
  },
  openai: {
    'gpt-5.5': gpt(5, 0.5, 30, OPENAI_5_5),
    'gpt-5.5-pro': gpt(30, undefined, 180, OPENAI_5_5),
    'gpt-5.4': {
      ...gpt(2.5, 0.25, 15, OPENAI_5_4),
      longContext: { aboveInputTokens: 272_000, ...gpt(5, 0.5, 22.5, OPENAI_LONG) },
    },
    'gpt-5.4-mini': gpt(0.75, 0.075, 4.5, OPENAI_5_4),
    'gpt-5.4-nano': gpt(0.2, 0.02, 1.25, OPENAI_5_4),
    'gpt-5.4-pro': gpt(30, undefined, 180, OPENAI_5_5),
    'gpt-5.2': gpt(1.75, 0.175, 14, OPENAI_5_4),
    'gpt-5.2-pro': gpt(21, undefined, 168, OPENAI_5_4),
    'gpt-5.1': gpt(1.25, 0.125, 10, OPENAI_5_4),
    'gpt-5': gpt(1.25, 0.125, 10, OPENAI_OLDER),
    'gpt-5-mini': gpt(0.25, 0.025, 2, OPENAI_OLDER),
    'gpt-5-nano': gpt(0.05, 0.005, 0.4, OPENAI_OLDER),
    'gpt-5-pro': gpt(15, undefined, 120, OPENAI_5_4),
    'gpt-4.1': gpt(2, 0.5, 8, OPENAI_OLDER),
    'gpt-4.1-mini': gpt(0.4, 0.1, 1.6, OPENAI_OLDER),
    'gpt-4.1-nano': gpt(0.1, 0.025, 0.4, OPENAI_OLDER),
    'gpt-4o': gpt(2.5, 1.25, 10, OPENAI_OLDER),
    'gpt-4o-mini': gpt(0.15, 0.075, 0.6, OPENAI_OLDER),
  },
  google: {
    'gemini-3.5-flash': gemini(1.5, 9),
    'gemini-3.1-pro': geminiPro(2, 12, 4, 18),
    'gemini-3.1-pro-preview': geminiPro(2, 12, 4, 18),
    'gemini-3.1-flash-lite': gemini(0.25, 1.5),
    'gemini-3-pro-preview': geminiPro(2, 12, 4, 18),
    'gemini-3-flash': gemini(0.5, 3),
    'gemini-3-flash-preview': gemini(0.5, 3),
    'gemini-2.5-pro': geminiPro(1.25, 10, 2.5, 15),
    'gemini-2.5-flash': gemini(0.3, 2.5),
    'gemini-2.5-flash-lite': gemini(0.1, 0.4),
    'gemini-2.0-flash': gemini(0.1, 0.4, 0.025),
  },
};
