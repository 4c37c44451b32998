import { commandEnv, isSecretEnvName } from './command-env.js';

describe('isSecretEnvName', () => {
  it.each([
    'OPENAI_API_KEY',
    'ANTHROPIC_API_KEY',
    'GITHUB_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'AWS_ACCESS_KEY_ID',
    'AWS_SESSION_TOKEN',
    'DB_PASSWORD',
    'CLIENT_SECRET',
    'API_KEY',
    'TOKEN',
    'npm_config__authToken_TOKEN',
    'GOOGLE_APPLICATION_CREDENTIALS',
    'SSH_PRIVATE_KEY',
  ])('%s is secret', (name) => {
    expect(isSecretEnvName(name)).toBe(true);
  });

  it.each(['PATH', 'HOME', 'TOKENIZERS_PARALLELISM', 'KEYBOARD', 'NODE_ENV', 'SECRETARY_NAME'])(
    '%s is not',
    (name) => {
      expect(isSecretEnvName(name)).toBe(false);
    },
  );
});

describe('commandEnv', () => {
  it('drops secret-looking variables, passes those listed, and sets env on top', () => {
    const base = { PATH: '/bin', OPENAI_API_KEY: 'sk-1', NPM_TOKEN: 't', HOME: '/h' };
    expect(commandEnv(base)).toEqual({ PATH: '/bin', HOME: '/h' });
    expect(commandEnv(base, { passEnv: ['NPM_TOKEN'], env: { CI: '1', HOME: undefined } })).toEqual({
      PATH: '/bin',
      NPM_TOKEN: 't',
      CI: '1',
    });
    expect(commandEnv(base, { env: { MY_TOKEN: 'given' } })).toMatchObject({ MY_TOKEN: 'given' });
  });
});
