import { asyncScheduler, config, subscribeOn } from 'rxjs';
import { collectEvents, scriptedModel, textTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { Phase } from './agent-state.js';
import { withState } from './with-state.js';

// RxJS contract, pinned as the README's "State" section documents it: an error thrown by a
// subscriber's `next` handler is caught by RxJS and reported as an unhandled error
// (`config.onUnhandledError`, else rethrown asynchronously); it neither reaches the other
// subscribers nor the run.

let reported: unknown[];
let saved: typeof config.onUnhandledError;

beforeEach(() => {
  reported = [];
  saved = config.onUnhandledError;
  config.onUnhandledError = (error: unknown) => reported.push(error);
});

afterEach(() => {
  config.onUnhandledError = saved;
});

/** RxJS reports unhandled errors on a timeout: let them arrive. */
const reportsDelivered = () => new Promise<void>((resolve) => setTimeout(resolve, 10));

// Started asynchronously, so that every subscriber of a test is there from the first event.
const run = () =>
  withState(
    runAgent({ model: scriptedModel([textTurn('hi')]), prompt: 'go' }).pipe(subscribeOn(asyncScheduler)),
  );

describe('withState: a throwing subscriber', () => {
  it('a throwing state$ subscriber does not stop the run or other subscribers', async () => {
    const { events$, state$ } = run();
    const boom = new Error('render failed');
    const phases: Phase[] = [];
    state$.subscribe(() => {
      throw boom;
    });
    state$.subscribe((state) => phases.push(state.phase));

    const events = await collectEvents(events$);
    await reportsDelivered();

    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(state$.value.phase).toBe('done');
    expect(phases.at(-1)).toBe('done');
    expect(phases).toContain('llm-in-flight');
    // Reported once per state it was handed, and only there.
    expect(reported.length).toBe(phases.length);
    expect(reported.every((error) => error === boom)).toBe(true);
  });

  it('a throwing events$ subscriber does not stop the run or the other events$ subscribers', async () => {
    const { events$, state$ } = run();
    const boom = new Error('log failed');
    const seen: AgentEvent['type'][] = [];
    events$.subscribe((event) => {
      if (event.type === 'turn-start') throw boom;
    });
    events$.subscribe((event) => seen.push(event.type));

    const late = await collectEvents(events$);
    await reportsDelivered();

    expect(seen).toContain('turn-start');
    expect(seen.at(-1)).toBe('agent-end');
    expect(late.at(-1)).toMatchObject({ type: 'agent-end' });
    expect(state$.value.phase).toBe('done');
    expect(reported).toEqual([boom]);
  });
});
