import { detectProvider, providerModelFactory } from './provider-factory.js';

describe('detectProvider', () => {
  it('uses the scripted runs without a key', async () => {
    expect(detectProvider({})).toBeUndefined();
    expect(await providerModelFactory({}, { root: '.' })).toBeUndefined();
  });

  it('picks the provider whose key is set, OpenAI first', () => {
    expect(detectProvider({ ANTHROPIC_API_KEY: 'k' })).toBe('anthropic');
    expect(detectProvider({ OPENAI_API_KEY: 'k' })).toBe('openai');
    expect(detectProvider({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k' })).toBe('openai');
  });

  it('lets RXAGENT_PROVIDER choose, or force the scripted runs', () => {
    expect(
      detectProvider({ OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', RXAGENT_PROVIDER: 'Anthropic' }),
    ).toBe('anthropic');
    expect(detectProvider({ OPENAI_API_KEY: 'k', RXAGENT_PROVIDER: 'scripted' })).toBeUndefined();
    expect(detectProvider({ RXAGENT_PROVIDER: 'openai' })).toBe('openai');
  });
});
