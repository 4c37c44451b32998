// The long form of the Rx-law suite, run by `pnpm test:faults` (RXAGENT_FAULTS=full): the same
// law suites, registered here so that the `\.faults\.spec\.ts$` pattern picks them up, with the
// long run counts (`lawParams` reads RXAGENT_FAULTS). Without RXAGENT_FAULTS=full the law files
// already run in short form on their own, so nothing is registered twice.
import { FULL_LAWS } from './law-harness.test.js';

const LAWS = [
  './composition.spec',
  './misuse.spec',
  './unsubscribe.spec',
  './producers.spec',
  './transcripts.spec',
  './issue-regressions.spec',
];

if (FULL_LAWS) {
  // Each module registers its describe blocks when it is loaded.
  for (const law of LAWS) jest.requireActual(law);
} else {
  describe('Rx laws, long form', () => {
    it.skip('runs with RXAGENT_FAULTS=full (pnpm test:faults)', () => undefined);
  });
}
