/**
 * True when the full fault suite was asked for (`pnpm test:faults`).
 *
 * @example
 * const sizes = FULL_FAULTS ? [10, 100] : [10];
 */
export const FULL_FAULTS = process.env.RXAGENT_FAULTS === 'full';

/**
 * How many random runs a property makes: the short count by default, the full one under
 * `RXAGENT_FAULTS=full`.
 *
 * @example
 * fc.assert(property, { numRuns: faultRuns(500, 10_000), seed: faultSeed() });
 */
export function faultRuns(short: number, full: number): number {
  return FULL_FAULTS ? full : short;
}

/**
 * The seed of the random runs: `RXAGENT_FAULTS_SEED` to replay a failure, else a fresh one.
 * fast-check prints it (with the failing case) when a property fails.
 *
 * @example
 * RXAGENT_FAULTS_SEED=12345 pnpm exec jest bench/src/faults
 */
export function faultSeed(): number {
  const fromEnv = Number(process.env.RXAGENT_FAULTS_SEED);
  return Number.isInteger(fromEnv) ? fromEnv : Math.floor(Math.random() * 2 ** 31);
}

/**
 * Jest timeout for a fault test: generous, since the full form makes thousands of runs.
 *
 * @example
 * it('survives random aborts', async () => {…}, faultTimeout(60_000, 600_000));
 */
export function faultTimeout(shortMs: number, fullMs: number): number {
  return FULL_FAULTS ? fullMs : shortMs;
}
