/**
 * Context windows (input + output tokens) of known OpenAI and Anthropic models, by model id
 * prefix; the longest matching prefix wins. From the providers' model pages (2025-2026).
 */
const CONTEXT_WINDOWS: readonly (readonly [prefix: string, tokens: number])[] = [
  // OpenAI
  ['gpt-5', 400_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4o', 128_000],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['o1-mini', 128_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['codex-mini', 200_000],
  // Anthropic
  ['claude-opus-4', 200_000],
  ['claude-sonnet-4', 200_000],
  ['claude-haiku-4', 200_000],
  ['claude-3-7-sonnet', 200_000],
  ['claude-3-5-sonnet', 200_000],
  ['claude-3-5-haiku', 200_000],
  ['claude-3-opus', 200_000],
  ['claude-3-haiku', 200_000],
];

/**
 * The context window of a known OpenAI or Anthropic model, or undefined. `overrides`
 * (model id prefix → tokens) are consulted first, with the same longest-prefix rule.
 *
 * @example
 * contextWindowOf('gpt-4o-mini'); // 128000
 * contextWindowOf('my-local-model', { 'my-local': 32_768 }); // 32768
 */
export function contextWindowOf(
  modelId: string,
  overrides: Readonly<Record<string, number>> = {},
): number | undefined {
  const id = modelId.toLowerCase().replace(/^(openai|anthropic)\//, '');
  return longestPrefix(Object.entries(overrides), id) ?? longestPrefix(CONTEXT_WINDOWS, id);
}

function longestPrefix(table: readonly (readonly [string, number])[], id: string): number | undefined {
  let best: readonly [string, number] | undefined;
  for (const entry of table) {
    if (id.startsWith(entry[0].toLowerCase()) && (!best || entry[0].length > best[0].length)) best = entry;
  }
  return best?.[1];
}
