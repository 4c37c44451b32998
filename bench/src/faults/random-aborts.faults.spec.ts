import fc from 'fast-check';
import { isTerminal } from '@rxagent/core';
import { abortScenarioArb, playAbortScenario, type StopMoment } from './abort-scenario.js';
import { faultRuns, faultSeed, faultTimeout } from './fault-config.js';
import { installProcessGuards } from './process-guards.js';
import { flushReports } from './virtual-time.js';

describe('random aborts and unsubscribes in virtual time', () => {
  const guard = installProcessGuards();
  afterAll(() => guard.uninstall());

  it('the process guard listens on the real process', () => {
    expect(guard.listening()).toBe(true);
  });

  it(
    'every stopped run keeps a valid transcript, ends in a terminal phase and leaves nothing open',
    async () => {
      const moments = new Map<string, number>();
      const seed = faultSeed();
      await fc.assert(
        fc.asyncProperty(abortScenarioArb, async (scenario) => {
          const natural = await playAbortScenario(scenario);
          expect(natural.ended).toBe(true);
          const stopAt = Math.floor((scenario.at / 10_000) * (natural.endedAt + 1));
          const run = await playAbortScenario(scenario, stopAt);
          const label = `${scenario.stop}:${run.moment}`;
          moments.set(label, (moments.get(label) ?? 0) + 1);

          // Ended: an abort ends the run by itself; an unsubscribe ends it from outside.
          expect(run.ended).toBe(true);
          expect(isTerminal(run.state.phase)).toBe(true);
          if (scenario.stop === 'abort' && run.moment !== 'after-end') {
            expect(run.agentEnd?.reason).toBe('user-requested');
            expect(run.state.phase).toBe('cancelled');
          }
          if (scenario.stop === 'unsubscribe' && run.moment !== 'after-end') {
            expect(run.state.phase).toBe('cancelled');
          }
          // A valid transcript, from state$ and from agent-end.
          expect(run.stateIssues).toEqual([]);
          expect(run.endIssues).toEqual([]);
          // Nothing left running.
          expect(run.leftOpen).toEqual({ streams: 0, observables: 0, promises: 0, approvals: 0, timers: 0 });
        }),
        { numRuns: faultRuns(500, 10_000), seed },
      );
      await flushReports();
      expect(guard.faults.unhandledRejections).toEqual([]);
      expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
      // The random moments did land in every interesting place.
      const hit = (moment: StopMoment) =>
        (moments.get(`abort:${moment}`) ?? 0) + (moments.get(`unsubscribe:${moment}`) ?? 0);
      for (const moment of ['mid-stream', 'mid-tool', 'during-approval', 'during-backoff'] as const) {
        expect({ moment, hits: hit(moment) }).toEqual({ moment, hits: expect.any(Number) as number });
        expect(hit(moment)).toBeGreaterThan(0);
      }
      process.stdout.write(
        `random aborts (seed ${seed}): ${[...moments].map(([k, v]) => `${k} ${v}`).join(', ')}\n`,
      );
    },
    faultTimeout(60_000, 900_000),
  );
});
