import {
  resumeRun,
  runAgent,
  type AgentEvent,
  type ChatRequest,
  type RunAgentConfig,
  type RunSnapshot,
} from '@rxagent/core';
// The operator state `compactContext` keeps the manager's per-run state under (core's README).
const CONTEXT_MANAGER_STATE = 'compactContext';
import { collectEvents, scriptedModel } from '@rxagent/testing';
import { queueScheduler, type SchedulerLike } from 'rxjs';
import { contextEngine } from './context-engine.js';
import { checkpointWriter, fileTools, workingTurns } from './context-fixtures.test.js';
import type { EngineState } from './engine-state.js';

const GOAL = 'Refactor every file under src/ to the new API.';
const STEPS = 120;
/** A clock that stands still, so the original and the resumed run stamp the same times. */
const still: SchedulerLike = Object.assign(Object.create(queueScheduler) as SchedulerLike, {
  now: () => 1_000,
});

/** The run's settings with a context engine of its own (a fresh instance each time). */
function settings(model: RunAgentConfig['model'], summaries: RunAgentConfig['model']) {
  return {
    model,
    tools: fileTools(),
    maxSteps: STEPS + 1,
    scheduler: still,
    contextManager: contextEngine({ model, contextWindow: 8_000, summaryModel: summaries }),
  };
}

const plain = (requests: readonly ChatRequest[]) =>
  JSON.parse(JSON.stringify(requests.map((r) => r.messages))) as unknown;
/** The requests' messages without their times (a replay stamps its messages anew). */
const timeless = (requests: readonly ChatRequest[]) =>
  JSON.parse(
    JSON.stringify(
      requests.map((r) => r.messages),
      (key, value: unknown) => (key === 'timestamp' ? undefined : value),
    ),
  ) as unknown;
const strategies = (events: readonly AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'compaction' ? [e.strategy] : []));
const modelCalls = (snapshot: RunSnapshot) => snapshot.messages.filter((m) => m.role === 'assistant').length;

describe('a run resumed from a snapshot taken after a compaction', () => {
  const model = scriptedModel(workingTurns(STEPS), { scheduler: still });
  const summaries = checkpointWriter({ scheduler: still });
  const snapshots: RunSnapshot[] = [];
  let events: AgentEvent[];
  /** A snapshot after the first summary, with a summary update still to come. */
  let point: RunSnapshot;

  beforeAll(async () => {
    events = await collectEvents(
      runAgent({ ...settings(model, summaries), prompt: GOAL, onSnapshot: (s) => snapshots.push(s) }),
    );
    const withCheckpoint = snapshots.filter(
      (s) => (s.operators[CONTEXT_MANAGER_STATE] as EngineState | undefined)?.checkpoint !== undefined,
    );
    point = withCheckpoint[1] as RunSnapshot;
  });

  /** The resumed run from `snapshot`, with fresh models and a fresh engine. */
  async function resume(snapshot: RunSnapshot) {
    const calls = modelCalls(snapshot);
    const rest = scriptedModel(workingTurns(STEPS).slice(calls), { scheduler: still });
    const summariesAfter = checkpointWriter({ scheduler: still });
    const resumed = await collectEvents(resumeRun(snapshot, settings(rest, summariesAfter)));
    return { calls, rest, summariesAfter, resumed };
  }

  it('the original summarized, then updated its summary after the snapshot', () => {
    expect(events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(strategies(events).filter((s) => s === 'summary')).toHaveLength(1);
    expect(strategies(events).filter((s) => s === 'summary-update').length).toBeGreaterThan(1);
    expect(point).toBeDefined();
    // The snapshot holds the engine's checkpoint as plain JSON.
    const state = point.operators[CONTEXT_MANAGER_STATE] as EngineState;
    expect(state.checkpoint?.summary).toMatch(/^## Goal\n/);
    expect(JSON.parse(JSON.stringify(state))).toEqual(state);
  });

  it('sends the same requests as the uninterrupted run, its summary updated, not rewritten', async () => {
    const { calls, rest, summariesAfter, resumed } = await resume(point);
    expect(resumed.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    expect(plain(rest.requests)).toEqual(plain(model.requests.slice(calls)));
    const summariesBefore = summaries.requests.length - summariesAfter.requests.length;
    expect(summariesAfter.requests.length).toBeGreaterThan(0);
    expect(plain(summariesAfter.requests)).toEqual(plain(summaries.requests.slice(summariesBefore)));
    const summarized = strategies(resumed).filter((s) => s.startsWith('summary'));
    expect(summarized.length).toBe(summariesAfter.requests.length);
    expect(summarized.every((s) => s === 'summary-update')).toBe(true);
    expect(strategies(resumed)).toEqual(strategies(events).slice(-strategies(resumed).length));
    // How full the context is, too: the calibration went on with the run.
    const usage = (list: readonly AgentEvent[]) => list.filter((e) => e.type === 'context-usage');
    expect(usage(resumed)).toEqual(usage(events).slice(-usage(resumed).length));
  });

  it('goes on with its checkpoint when the transcript was stamped anew (as a durable replay after a crash rebuilds it)', async () => {
    const restamped = {
      ...point,
      messages: point.messages.map((m) => ({ ...m, timestamp: m.timestamp + 1 })),
    };
    const { calls, rest, summariesAfter, resumed } = await resume(restamped);
    expect(resumed.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
    const summarized = strategies(resumed).filter((s) => s.startsWith('summary'));
    expect(summarized.length).toBeGreaterThan(0);
    expect(summarized.every((s) => s === 'summary-update')).toBe(true);
    expect(timeless(rest.requests)).toEqual(timeless(model.requests.slice(calls)));
    expect(plain(summariesAfter.requests)).toEqual(
      plain(summaries.requests.slice(summaries.requests.length - summariesAfter.requests.length)),
    );
  });

  it('without the engine state in the snapshot, the resumed run would write its summary afresh', async () => {
    const { [CONTEXT_MANAGER_STATE]: _dropped, ...others } = point.operators;
    const { rest, resumed } = await resume({ ...point, operators: others });
    expect(strategies(resumed)[0]).toBe('summary');
    expect(plain(rest.requests)).not.toEqual(plain(model.requests.slice(modelCalls(point))));
  });

  it('sync (a transcript replaced from outside) forgets the checkpoint and the view sent, keeps the calibration', () => {
    const state = point.operators[CONTEXT_MANAGER_STATE] as EngineState;
    const engine = contextEngine({ model, contextWindow: 8_000 });
    const next = engine.sync(point.messages, state);
    expect(state.checkpoint).toBeDefined();
    expect(state.meter?.sent).toBeDefined();
    expect(next).toEqual({
      last: state.last,
      meter: { correction: state.meter?.correction, reported: state.meter?.reported },
    });
    expect(engine.usage()).toEqual(state.last?.usage);
    expect(engine.snapshot().checkpoint).toBeUndefined();
  });
});
