import { contextEngine } from '@rxagent/context';
import type { ChatModel } from '@rxagent/core';
import type { ContextManager } from '@rxagent/core/context';
import type { ModelChoice } from './choose-model.js';
import { deepOfflineModel } from './offline-deep-plan.js';
import { offlineSummaryModel } from './offline-summary.js';

/**
 * The offline model for `--context-window`: the deep plan (it reads every subfolder's README
 * too), so that the context outgrows a small window.
 *
 * @example
 * const model = choice.offline && args.contextWindow ? contextDemoModel(env) : choice.model;
 */
export function contextDemoModel(env: { RXAGENT_DEMO_FAST?: string }): ChatModel {
  return deepOfflineModel(env.RXAGENT_DEMO_FAST === '1' ? { latency: { firstMs: 5, perEventMs: 1 } } : {});
}

/**
 * The context manager for `--context-window <n>`: `@rxagent/context`'s engine with that
 * window, summarizing with the run's model (offline: the scripted summarizer, fast when the
 * offline model is). Undefined without the flag.
 *
 * @example
 * new Agent({ model: choice.model, contextManager: contextOption(args.contextWindow, choice, env) });
 */
export function contextOption(
  contextWindow: number | undefined,
  choice: Pick<ModelChoice, 'model' | 'offline'>,
  env: { RXAGENT_DEMO_FAST?: string },
): ContextManager | undefined {
  if (contextWindow === undefined) return undefined;
  const fast = env.RXAGENT_DEMO_FAST === '1';
  return contextEngine({
    model: choice.model,
    contextWindow,
    summaryModel: choice.offline
      ? offlineSummaryModel(fast ? { latency: { firstMs: 5, perEventMs: 1 } } : {})
      : undefined,
  });
}
