import type { ChatModel } from '@rxagent/core';
import { anthropic, type AnthropicOptions } from '@rxagent/anthropic';
import { openai, type OpenAIOptions } from '@rxagent/openai';
import { offlineModel, type OfflineModelOptions } from './offline-plan.js';
import { UsageError, type DemoArgs } from './parse-args.js';

/**
 * The default model of each provider (`--model` or `RXAGENT_MODEL` override it).
 *
 * @example
 * DEFAULT_MODELS.openai; // 'gpt-4o-mini'
 */
export const DEFAULT_MODELS = { openai: 'gpt-4o-mini', anthropic: 'claude-sonnet-4-5' } as const;

/**
 * The key sent to a `--base-url` server when no key is set: local OpenAI-compatible servers
 * ignore it, but the client needs one.
 *
 * @example
 * chooseModel({ baseUrl: 'http://127.0.0.1:11434/v1' }, {}); // apiKey: PLACEHOLDER_KEY
 */
export const PLACEHOLDER_KEY = 'no-key-needed';

/**
 * The environment variables the demo reads.
 *
 * @example
 * const env: DemoEnv = process.env;
 */
export interface DemoEnv {
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  /** `openai`, `anthropic` or `scripted`, when `--provider` is not given. */
  RXAGENT_PROVIDER?: string;
  /** The model id, when `--model` is not given. */
  RXAGENT_MODEL?: string;
  /** `1`: the offline model without its simulated latency (tests). */
  RXAGENT_DEMO_FAST?: string;
}

/**
 * The model the demo runs, how to name it, and what to say about it on the first line.
 *
 * @example
 * const { model, notice } = chooseModel(args, process.env);
 * console.log(notice);
 */
export interface ModelChoice {
  model: ChatModel;
  /** `openai gpt-4o-mini`, `scripted offline-demo`… (never a key). */
  label: string;
  offline: boolean;
  /** The first line the demo prints. */
  notice: string;
  /** Values to blank out of any error message printed. */
  secrets: string[];
}

/**
 * How models are built (the real adapters by default; tests pass their own).
 *
 * @example
 * chooseModel(args, env, { ...PROVIDERS, openai: (id, options) => fakeModel(id, options) });
 */
export interface ModelFactories {
  openai: (modelId: string, options: OpenAIOptions) => ChatModel;
  anthropic: (modelId: string, options: AnthropicOptions) => ChatModel;
  offline: (options: OfflineModelOptions) => ChatModel;
}

/**
 * The real model factories: `@rxagent/openai`, `@rxagent/anthropic` and the offline plan.
 *
 * @example
 * chooseModel(args, process.env, PROVIDERS);
 */
export const PROVIDERS: ModelFactories = { openai, anthropic, offline: offlineModel };

/**
 * Picks the model from the flags and the environment: `--provider` (or `RXAGENT_PROVIDER`)
 * when given; else OpenAI with `--base-url` (an OpenAI-compatible server) or
 * `OPENAI_API_KEY`; else Anthropic with `ANTHROPIC_API_KEY`; else the built-in scripted model,
 * offline. With `--base-url` a missing key is replaced by a placeholder.
 *
 * @throws UsageError when a provider is asked for without its key (and no `--base-url`).
 *
 * @example
 * chooseModel({ provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5' }, {}).label;
 * // 'openai qwen2.5 at http://127.0.0.1:11434/v1'
 */
export function chooseModel(
  args: Pick<DemoArgs, 'provider' | 'model' | 'baseUrl'>,
  env: DemoEnv,
  factories: ModelFactories = PROVIDERS,
): ModelChoice {
  const openaiKey = env.OPENAI_API_KEY?.trim() || undefined;
  const anthropicKey = env.ANTHROPIC_API_KEY?.trim() || undefined;
  const secrets = [openaiKey, anthropicKey].filter((k): k is string => k !== undefined);
  const forced = args.provider ?? providerFromEnv(env.RXAGENT_PROVIDER);
  const provider =
    forced ?? (args.baseUrl || openaiKey ? 'openai' : anthropicKey ? 'anthropic' : ('scripted' as const));
  if (provider === 'scripted') {
    if (args.baseUrl) throw new UsageError('--base-url needs --provider openai or anthropic, not scripted.');
    const fast = env.RXAGENT_DEMO_FAST === '1';
    const model = factories.offline(fast ? { latency: { firstMs: 5, perEventMs: 1 } } : {});
    const why = forced
      ? `${args.provider ? '--provider ' : 'RXAGENT_PROVIDER='}scripted`
      : 'No OPENAI_API_KEY or ANTHROPIC_API_KEY';
    return {
      model,
      label: `${model.provider} ${model.modelId}`,
      offline: true,
      notice: `${why}: using the built-in scripted model (offline).`,
      secrets,
    };
  }
  const keyName = provider === 'openai' ? 'OPENAI_API_KEY' : 'ANTHROPIC_API_KEY';
  const key = provider === 'openai' ? openaiKey : anthropicKey;
  if (!key && !args.baseUrl) {
    throw new UsageError(
      `--provider ${provider} needs ${keyName} in the environment` +
        (provider === 'openai' ? ' (or --base-url for a local OpenAI-compatible server).' : '.'),
    );
  }
  const modelId = args.model ?? (env.RXAGENT_MODEL?.trim() || DEFAULT_MODELS[provider]);
  const options = { apiKey: key ?? PLACEHOLDER_KEY, ...(args.baseUrl ? { baseURL: args.baseUrl } : {}) };
  const model =
    provider === 'openai' ? factories.openai(modelId, options) : factories.anthropic(modelId, options);
  const where = args.baseUrl ? ` at ${args.baseUrl}` : '';
  const label = `${provider} ${modelId}${where}`;
  const source = key ? keyName : 'no key';
  return { model, label, offline: false, notice: `Using ${label} (${source}).`, secrets };
}

function providerFromEnv(value: string | undefined): DemoArgs['provider'] {
  const name = value?.trim().toLowerCase();
  if (!name) return undefined;
  if (name === 'openai' || name === 'anthropic' || name === 'scripted') return name;
  throw new UsageError(`RXAGENT_PROVIDER must be openai, anthropic or scripted; got "${value}".`);
}
