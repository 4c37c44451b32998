import type { AnyTool, ChatModel } from '@rxagent/core';
import type { ModelFactory, RunRecipe, RunRequest } from './run-factory.js';

/**
 * A real provider the dashboard can run against.
 *
 * @example
 * const provider: ProviderName | undefined = detectProvider(process.env);
 */
export type ProviderName = 'openai' | 'anthropic';

/**
 * The environment variables the provider selection reads.
 *
 * @example
 * detectProvider({ ANTHROPIC_API_KEY: 'sk-…', RXAGENT_MODEL: 'claude-sonnet-4-5' }); // 'anthropic'
 */
export interface ProviderEnv {
  OPENAI_API_KEY?: string;
  ANTHROPIC_API_KEY?: string;
  /** `openai`, `anthropic` or `scripted`: overrides the choice made from the keys. */
  RXAGENT_PROVIDER?: string;
  /** The model id (default `gpt-4o-mini` / `claude-haiku-4-5`). */
  RXAGENT_MODEL?: string;
}

const DEFAULT_MODELS: Record<ProviderName, string> = { openai: 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' };

const SYSTEM =
  'You answer questions about the project in the current folder. Look before you answer: list, ' +
  'grep and read files. Keep answers short. Writing a file needs the approval of the person ' +
  'watching the dashboard.';

const PROMPTS = [
  'What does this project do? Answer in five lines.',
  'Which files would you read first to understand this project, and why?',
  'Find the TODO comments in this project and summarize them.',
];

/**
 * Which real provider to use: `RXAGENT_PROVIDER` when set (`scripted` means none), else
 * OpenAI when `OPENAI_API_KEY` is set, else Anthropic when `ANTHROPIC_API_KEY` is set, else
 * none (the scripted runs).
 *
 * @example
 * detectProvider(process.env); // 'openai' | 'anthropic' | undefined
 */
export function detectProvider(env: ProviderEnv): ProviderName | undefined {
  const forced = env.RXAGENT_PROVIDER?.trim().toLowerCase();
  if (forced === 'openai' || forced === 'anthropic') return forced;
  if (forced === 'scripted') return undefined;
  if (env.OPENAI_API_KEY) return 'openai';
  if (env.ANTHROPIC_API_KEY) return 'anthropic';
  return undefined;
}

/**
 * A `ModelFactory` over the real provider chosen by `detectProvider`, with the read-only file
 * tools on `root` plus `write` behind an approval; `undefined` when no provider is configured.
 * The provider and tools packages are loaded only here, and only when needed, so the scripted
 * dashboard never depends on them.
 *
 * @example
 * const factory = await providerModelFactory(process.env, { root: process.cwd() });
 * await startDashboard({ modelFactory: factory }); // scripted runs when factory is undefined
 */
export async function providerModelFactory(
  env: ProviderEnv,
  options: { root: string },
): Promise<ModelFactory | undefined> {
  const provider = detectProvider(env);
  if (!provider) return undefined;
  const modelId = env.RXAGENT_MODEL?.trim() || DEFAULT_MODELS[provider];
  const { fileTools } = await import('@rxagent/tools');
  const makeModel = await modelMaker(provider);
  const create = (request: RunRequest): RunRecipe => {
    const { read, list, grep, write } = fileTools({ root: options.root });
    const tools = [read, list, grep, { ...write, needsApproval: true }] as AnyTool[];
    return {
      model: makeModel(modelId, request),
      tools,
      system: SYSTEM,
      prompt: request.prompt?.trim() || (PROMPTS[request.index % PROMPTS.length] as string),
      label: `${provider} #${request.index + 1}`,
      maxSteps: 12,
    };
  };
  return Object.assign(create, { scenarios: [] as string[], source: `${provider} ${modelId}` });
}

async function modelMaker(
  provider: ProviderName,
): Promise<(modelId: string, request: RunRequest) => ChatModel> {
  if (provider === 'openai') {
    const { openai } = await import('@rxagent/openai');
    return (modelId, request) => openai(modelId, { scheduler: request.scheduler });
  }
  const { anthropic } = await import('@rxagent/anthropic');
  return (modelId, request) => anthropic(modelId, { scheduler: request.scheduler });
}
