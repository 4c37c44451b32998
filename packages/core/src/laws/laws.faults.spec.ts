// The long form of the Rx-law suite, run by `pnpm test:faults` (RXAGENT_FAULTS=full): the same
// law suites, registered here so that the `\.faults\.spec\.ts$` pattern picks them up, with the
// long run counts (`lawParams` reads RXAGENT_FAULTS). jest.config.ts collects this file only
// with RXAGENT_FAULTS=full: otherwise the law files run in short form on their own.
import { FULL_LAWS } from './law-harness.test.js';

const LAWS = [
  './composition.spec',
  './misuse.spec',
  './unsubscribe.spec',
  './producers.spec',
  './transcripts.spec',
  './issue-regressions.spec',
];

// Each module registers its describe blocks when it is loaded.
for (const law of LAWS) jest.requireActual(law);

describe('Rx laws, long form', () => {
  it('runs with the long run counts', () => {
    expect(FULL_LAWS).toBe(true);
  });
});
