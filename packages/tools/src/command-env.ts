// A name part (between `_`s, or the whole name) that says the value is a credential.
const SECRET_NAME =
  /(^|_)(API_?KEY|ACCESS_?KEY(_ID)?|PRIVATE_?KEY|SECRET|SECRET_?KEY|TOKEN|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?)($|_)/i;

/**
 * True for environment variable names that look like they hold a secret: provider keys
 * (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`), `*_TOKEN`, `*_SECRET`, `*_PASSWORD`, `*_ACCESS_KEY`,
 * `*_PRIVATE_KEY`, `*_CREDENTIALS`, … (case-insensitive, as whole `_`-separated parts: `TOKENIZERS_PARALLELISM`
 * is not one).
 *
 * @example
 * isSecretEnvName('GITHUB_TOKEN'); // true
 * isSecretEnvName('PATH'); // false
 */
export function isSecretEnvName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * Options of `commandEnv`.
 *
 * @example
 * const options: CommandEnvOptions = { passEnv: ['NPM_TOKEN'], env: { CI: '1' } };
 */
export interface CommandEnvOptions {
  /** Secret-looking variables of the base environment to pass anyway, by exact name. */
  passEnv?: readonly string[];
  /** Set on top (always passed, whatever their names; `undefined` removes a variable). */
  env?: Record<string, string | undefined>;
}

/**
 * The environment a command gets: `base` (default `process.env`) without the variables whose
 * names look secret (`isSecretEnvName`) unless listed in `passEnv`, then `env` on top.
 *
 * @example
 * commandEnv({ OPENAI_API_KEY: 'sk-…', PATH: '/bin' }); // { PATH: '/bin' }
 * commandEnv({ NPM_TOKEN: 't' }, { passEnv: ['NPM_TOKEN'] }); // { NPM_TOKEN: 't' }
 */
export function commandEnv(
  base: NodeJS.ProcessEnv = process.env,
  options: CommandEnvOptions = {},
): NodeJS.ProcessEnv {
  const pass = new Set(options.passEnv ?? []);
  const result: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value !== undefined && (pass.has(name) || !isSecretEnvName(name))) result[name] = value;
  }
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete result[name];
    else result[name] = value;
  }
  return result;
}
