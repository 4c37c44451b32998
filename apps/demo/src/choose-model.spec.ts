import type { ChatModel } from '@rxagent/core';
import { EMPTY } from 'rxjs';
import { chooseModel, DEFAULT_MODELS, PLACEHOLDER_KEY, type ModelFactories } from './choose-model.js';
import { UsageError } from './parse-args.js';

const OPENAI_KEY = 'sk-openai-secret-1234';
const ANTHROPIC_KEY = 'sk-ant-secret-5678';

/** Factories that record what they were asked for. */
function recording() {
  const calls: { provider: string; modelId?: string; options: unknown }[] = [];
  const fake = (provider: string, modelId: string): ChatModel => ({ provider, modelId, stream: () => EMPTY });
  const factories: ModelFactories = {
    openai: (modelId, options) => (
      calls.push({ provider: 'openai', modelId, options }),
      fake('openai', modelId)
    ),
    anthropic: (modelId, options) => (
      calls.push({ provider: 'anthropic', modelId, options }),
      fake('anthropic', modelId)
    ),
    offline: (options) => (calls.push({ provider: 'scripted', options }), fake('scripted', 'offline-demo')),
  };
  return { calls, factories };
}

describe('chooseModel', () => {
  it('with no key: the offline scripted model, and a notice saying so', () => {
    const { calls, factories } = recording();
    const choice = chooseModel({}, {}, factories);
    expect(choice.offline).toBe(true);
    expect(choice.model.provider).toBe('scripted');
    expect(choice.notice).toBe(
      'No OPENAI_API_KEY or ANTHROPIC_API_KEY: using the built-in scripted model (offline).',
    );
    expect(calls).toEqual([{ provider: 'scripted', options: {} }]);
  });

  it('RXAGENT_DEMO_FAST=1 takes the latency out of the offline model', () => {
    const { calls, factories } = recording();
    chooseModel({}, { RXAGENT_DEMO_FAST: '1' }, factories);
    expect(calls[0]?.options).toEqual({ latency: { firstMs: 5, perEventMs: 1 } });
  });

  it('OPENAI_API_KEY: OpenAI with its default model and that key', () => {
    const { calls, factories } = recording();
    const choice = chooseModel(
      {},
      { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY },
      factories,
    );
    expect(choice).toMatchObject({ offline: false, label: `openai ${DEFAULT_MODELS.openai}` });
    expect(calls).toEqual([{ provider: 'openai', modelId: 'gpt-4o-mini', options: { apiKey: OPENAI_KEY } }]);
  });

  it('ANTHROPIC_API_KEY alone: Anthropic with its default model', () => {
    const { calls, factories } = recording();
    const choice = chooseModel({}, { ANTHROPIC_API_KEY: ANTHROPIC_KEY }, factories);
    expect(choice.label).toBe('anthropic claude-sonnet-4-5');
    expect(calls).toEqual([
      { provider: 'anthropic', modelId: 'claude-sonnet-4-5', options: { apiKey: ANTHROPIC_KEY } },
    ]);
  });

  it('--provider wins over the keys, --model over RXAGENT_MODEL over the default', () => {
    const { calls, factories } = recording();
    const env = {
      OPENAI_API_KEY: OPENAI_KEY,
      ANTHROPIC_API_KEY: ANTHROPIC_KEY,
      RXAGENT_MODEL: 'claude-haiku-4-5',
    };
    expect(chooseModel({ provider: 'anthropic' }, env, factories).label).toBe('anthropic claude-haiku-4-5');
    expect(chooseModel({ provider: 'anthropic', model: 'claude-opus-4-1' }, env, factories).label).toBe(
      'anthropic claude-opus-4-1',
    );
    expect(calls.map((c) => c.modelId)).toEqual(['claude-haiku-4-5', 'claude-opus-4-1']);
  });

  it('RXAGENT_PROVIDER=scripted (or --provider scripted) stays offline even with keys', () => {
    const { factories } = recording();
    const fromEnv = chooseModel({}, { OPENAI_API_KEY: OPENAI_KEY, RXAGENT_PROVIDER: 'scripted' }, factories);
    expect(fromEnv.offline).toBe(true);
    expect(fromEnv.notice).toBe('RXAGENT_PROVIDER=scripted: using the built-in scripted model (offline).');
    const fromFlag = chooseModel({ provider: 'scripted' }, { OPENAI_API_KEY: OPENAI_KEY }, factories);
    expect(fromFlag.notice).toBe('--provider scripted: using the built-in scripted model (offline).');
  });

  it('--base-url alone: an OpenAI-compatible server with a placeholder key', () => {
    const { calls, factories } = recording();
    const choice = chooseModel({ baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5:7b' }, {}, factories);
    expect(choice.label).toBe('openai qwen2.5:7b at http://127.0.0.1:11434/v1');
    expect(choice.notice).toBe('Using openai qwen2.5:7b at http://127.0.0.1:11434/v1 (no key).');
    expect(calls).toEqual([
      {
        provider: 'openai',
        modelId: 'qwen2.5:7b',
        options: { apiKey: PLACEHOLDER_KEY, baseURL: 'http://127.0.0.1:11434/v1' },
      },
    ]);
  });

  it('--base-url with a key set sends that key', () => {
    const { calls, factories } = recording();
    chooseModel(
      { provider: 'openai', baseUrl: 'http://127.0.0.1:8000/v1' },
      { OPENAI_API_KEY: OPENAI_KEY },
      factories,
    );
    expect(calls[0]?.options).toEqual({ apiKey: OPENAI_KEY, baseURL: 'http://127.0.0.1:8000/v1' });
  });

  it('refuses a provider without its key (and no --base-url), naming the variable to set', () => {
    const { factories } = recording();
    expect(() => chooseModel({ provider: 'openai' }, {}, factories)).toThrow(
      new UsageError(
        '--provider openai needs OPENAI_API_KEY in the environment (or --base-url for a local OpenAI-compatible server).',
      ),
    );
    expect(() => chooseModel({ provider: 'anthropic' }, { OPENAI_API_KEY: OPENAI_KEY }, factories)).toThrow(
      /needs ANTHROPIC_API_KEY/,
    );
    expect(() => chooseModel({ provider: 'scripted', baseUrl: 'http://x/v1' }, {}, factories)).toThrow(
      UsageError,
    );
    expect(() => chooseModel({}, { RXAGENT_PROVIDER: 'gemini' }, factories)).toThrow(/RXAGENT_PROVIDER/);
  });

  it('never shows a key: not in the label or the notice, nothing logged, and lists them as secrets', () => {
    const logged = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const warned = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const errored = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const env = { OPENAI_API_KEY: OPENAI_KEY, ANTHROPIC_API_KEY: ANTHROPIC_KEY };
      // The real adapters: they create their client lazily, so nothing is sent here.
      for (const provider of ['openai', 'anthropic'] as const) {
        const choice = chooseModel({ provider }, env);
        expect(choice.model.provider).toBe(provider);
        expect(JSON.stringify([choice.label, choice.notice])).not.toMatch(/secret/);
        expect(choice.secrets).toEqual([OPENAI_KEY, ANTHROPIC_KEY]);
      }
      expect([...logged.mock.calls, ...warned.mock.calls, ...errored.mock.calls]).toEqual([]);
    } finally {
      logged.mockRestore();
      warned.mockRestore();
      errored.mockRestore();
    }
  });
});
