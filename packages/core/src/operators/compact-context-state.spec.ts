import { collectEvents, errorTurn, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import {
  CONTEXT_MANAGER_STATE,
  type ContextManager,
  type ContextManagerContext,
} from '../context/context-manager.js';
import { ContextOverflowError } from '../errors/provider-errors.js';
import { resumeRun } from '../loop/resume-run.js';
import { runAgent } from '../loop/run-agent.js';
import type { Message } from '../messages/types.js';
import { jsonSchema, tool } from '../tools/tool.js';
import type { RunSnapshot } from '../turn/run-snapshot.js';

// A context manager's per-run state goes on the turn: handed back on its next call, in the
// run's snapshots, and given to its overflow recovery as this turn's projection left it.

interface Counted {
  projections: number;
  recoveries: number;
}

/** A manager that counts its calls in its state, and records the state it was given. */
function countingManager(seen: unknown[]): ContextManager {
  const counted = (context: ContextManagerContext): Counted =>
    (context.state as Counted | undefined) ?? { projections: 0, recoveries: 0 };
  return {
    project: (messages: readonly Message[], context) => {
      seen.push(context.state);
      const state = counted(context);
      return { messages, state: { ...state, projections: state.projections + 1 } };
    },
    recoverOverflow: (messages: readonly Message[], _error, context) => {
      seen.push(context.state);
      const state = counted(context);
      return { messages: messages.slice(-1), state: { ...state, recoveries: state.recoveries + 1 } };
    },
  };
}

const echo = tool({
  name: 'echo',
  description: 'Echo',
  parameters: jsonSchema<{ n: number }>({ type: 'object', properties: { n: { type: 'number' } } }),
  execute: ({ n }) => `echo ${n}`,
});
const turns = () => [
  toolCallTurn({ name: 'echo', args: { n: 1 } }),
  toolCallTurn({ name: 'echo', args: { n: 2 } }),
  textTurn('Done.'),
];

describe('compactContext keeps the manager state on the turn', () => {
  it('hands each call the state the last one returned, and puts it in the snapshots', async () => {
    const seen: unknown[] = [];
    const snapshots: RunSnapshot[] = [];
    await collectEvents(
      runAgent({
        model: scriptedModel(turns()),
        tools: [echo],
        prompt: 'Go.',
        contextManager: countingManager(seen),
        onSnapshot: (s) => snapshots.push(s),
      }),
    );
    expect(seen).toEqual([undefined, { projections: 1, recoveries: 0 }, { projections: 2, recoveries: 0 }]);
    expect(snapshots.map((s) => s.operators[CONTEXT_MANAGER_STATE])).toEqual([
      { projections: 1, recoveries: 0 },
      { projections: 2, recoveries: 0 },
      { projections: 3, recoveries: 0 },
    ]);
  });

  it('a run resumed from a snapshot goes on with its state (a fresh manager)', async () => {
    const snapshots: RunSnapshot[] = [];
    await collectEvents(
      runAgent({
        model: scriptedModel(turns()),
        tools: [echo],
        prompt: 'Go.',
        contextManager: countingManager([]),
        onSnapshot: (s) => snapshots.push(s),
      }),
    );
    const seen: unknown[] = [];
    const config = { model: scriptedModel(turns().slice(1)), tools: [echo] };
    await collectEvents(
      resumeRun(snapshots[0] as RunSnapshot, { ...config, contextManager: countingManager(seen) }),
    );
    expect(seen).toEqual([
      { projections: 1, recoveries: 0 },
      { projections: 2, recoveries: 0 },
    ]);
  });

  it("recovers an overflow from this turn's projection state, and the next call gets the recovery's", async () => {
    const seen: unknown[] = [];
    const overflow = new ContextOverflowError('prompt is too long');
    await collectEvents(
      runAgent({
        model: scriptedModel([
          toolCallTurn({ name: 'echo', args: { n: 1 } }),
          errorTurn(overflow),
          textTurn('Done.'),
        ]),
        tools: [echo],
        prompt: 'Go.',
        contextManager: countingManager(seen),
      }),
    );
    expect(seen).toEqual([
      undefined,
      { projections: 1, recoveries: 0 },
      // The recovery of step 2's call: after step 2's projection.
      { projections: 2, recoveries: 0 },
    ]);
  });

  it('the state after a recovery is the one the next projection gets', async () => {
    const seen: unknown[] = [];
    const overflow = new ContextOverflowError('prompt is too long');
    await collectEvents(
      runAgent({
        model: scriptedModel([
          errorTurn(overflow),
          toolCallTurn({ name: 'echo', args: { n: 1 } }),
          textTurn('Done.'),
        ]),
        tools: [echo],
        prompt: 'Go.',
        contextManager: countingManager(seen),
      }),
    );
    expect(seen).toEqual([undefined, { projections: 1, recoveries: 0 }, { projections: 1, recoveries: 1 }]);
  });
});
