import { AgentConfigError, type ChatModel } from '@rxagent/core';
import { contextWindowOf } from './context-windows.js';
import type { FileOperationsOf } from './file-operations.js';

/**
 * Options of `contextEngine`. Only `model` is required when the model is a known OpenAI or
 * Anthropic one (its context window comes from the table).
 *
 * @example
 * const options: ContextEngineOptions = { model: openai('gpt-4o'), summaryModel: openai('gpt-4o-mini'), reserveTokens: 8_000 };
 */
export interface ContextEngineOptions {
  /** The run's model: its context window is looked up, and it writes the summaries unless `summaryModel` is given. */
  model: ChatModel;
  /** The window in tokens (default: the table's entry for `model.modelId`). */
  contextWindow?: number;
  /** A cheaper model for the summary calls. */
  summaryModel?: ChatModel;
  /** Kept free for the answer, the system prompt and the tools (default 16,384, at most a quarter of the window). */
  reserveTokens?: number;
  /** The recent part kept verbatim when summarizing (default 20,000, at most 40 % of the window). */
  keepRecentTokens?: number;
  /** The summary's output limit (default 2,048, at most an eighth of the window). */
  summaryMaxTokens?: number;
  /** Retries of a failed summary call (default 2). */
  maxRetries?: number;
  /** The first retry's wait in ms, doubled each time (default 1,000). */
  retryDelayMs?: number;
  /** Paths other tools touch, by tool name (read, write and edit of `@rxagent/tools` are known). */
  fileOperations?: Readonly<Record<string, FileOperationsOf>>;
  /** Context windows by model id prefix, consulted before the built-in table. */
  contextWindows?: Readonly<Record<string, number>>;
}

/**
 * The engine's settings after defaults.
 *
 * @example
 * contextEngine({ model }).settings.reserveTokens; // 16384
 */
export interface ContextEngineSettings {
  contextWindow: number;
  reserveTokens: number;
  keepRecentTokens: number;
  summaryMaxTokens: number;
  maxRetries: number;
  retryDelayMs: number;
}

function positiveInteger(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw new AgentConfigError(`contextEngine: ${name} must be a whole number ≥ 0, got ${String(value)}.`);
  }
}

/** The options with defaults applied, checked. */
export function resolveSettings(options: ContextEngineOptions): ContextEngineSettings {
  if (!options?.model || typeof options.model.stream !== 'function') {
    throw new AgentConfigError("contextEngine needs a model: pass { model } (the run's ChatModel).");
  }
  for (const key of [
    'contextWindow',
    'reserveTokens',
    'keepRecentTokens',
    'summaryMaxTokens',
    'maxRetries',
    'retryDelayMs',
  ] as const) {
    positiveInteger(key, options[key]);
  }
  const contextWindow =
    options.contextWindow ?? contextWindowOf(options.model.modelId, options.contextWindows);
  if (!contextWindow) {
    throw new AgentConfigError(
      `contextEngine does not know the context window of "${options.model.modelId}": pass { contextWindow } ` +
        '(in tokens), or { contextWindows: { "<model id prefix>": tokens } }.',
    );
  }
  const reserveTokens = options.reserveTokens ?? Math.min(16_384, Math.floor(contextWindow / 4));
  const keepRecentTokens = options.keepRecentTokens ?? Math.min(20_000, Math.floor(contextWindow * 0.4));
  const summaryMaxTokens = options.summaryMaxTokens ?? Math.min(2_048, Math.floor(contextWindow / 8));
  if (reserveTokens >= contextWindow) {
    throw new AgentConfigError(
      `contextEngine: reserveTokens (${reserveTokens}) must be less than contextWindow (${contextWindow}).`,
    );
  }
  if (keepRecentTokens + summaryMaxTokens >= contextWindow - reserveTokens) {
    throw new AgentConfigError(
      `contextEngine: keepRecentTokens (${keepRecentTokens}) plus summaryMaxTokens (${summaryMaxTokens}) must be less than ` +
        `contextWindow - reserveTokens (${contextWindow - reserveTokens}), or a summary could not make the context fit.`,
    );
  }
  return {
    contextWindow,
    reserveTokens,
    keepRecentTokens,
    summaryMaxTokens,
    maxRetries: options.maxRetries ?? 2,
    retryDelayMs: options.retryDelayMs ?? 1_000,
  };
}
