import { z } from 'zod';
import { defer, from, map, Observable, tap } from 'rxjs';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { AgentEvent } from '../events/agent-event.js';
import { tool } from '../tools/tool.js';
import { runAgent } from './run-agent.js';
import type { InstrumentedRun, RunInstrument } from '../turn/run-instrument.js';
import type { ToolScopeCall } from '../tools/tool-scope.js';

/** A scope that records which call was "current" whenever `current()` is read inside it. */
function recordingScope() {
  let active: string | undefined;
  const entered: ToolScopeCall[] = [];
  const instrument: RunInstrument = {
    toolScope<T>(call: ToolScopeCall, execute: () => T): T {
      entered.push(call);
      const before = active;
      active = call.toolCallId;
      try {
        return execute();
      } finally {
        active = before;
      }
    },
  };
  return { instrument, entered, current: () => active };
}

describe('RunInstrument', () => {
  it('wraps the events of each subscription once, with the run it belongs to', async () => {
    const runs: InstrumentedRun[] = [];
    const seen: string[] = [];
    const instrument: RunInstrument = {
      events: (events$, run) => {
        runs.push(run);
        return events$.pipe(tap((e) => seen.push(e.type)));
      },
    };
    const model = scriptedModel([textTurn('Hi')]);
    const events = await collectEvents(runAgent({ model, prompt: 'hi', runId: 'run-1', instrument }));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ runId: 'run-1', provider: model.provider, modelId: model.modelId });
    expect(typeof runs[0]?.scheduler.now()).toBe('number');
    expect(seen).toEqual(events.map((e) => e.type));
    expect(seen.at(-1)).toBe('agent-end');
  });

  it('runs a synchronous, a Promise and an Observable tool inside the scope of their call', async () => {
    const { instrument, entered, current } = recordingScope();
    const inside: Record<string, string | undefined> = {};
    const sync = tool({
      name: 'sync',
      description: 'sync',
      parameters: z.object({}),
      execute: () => ((inside.sync = current()), 'ok'),
    });
    const promise = tool({
      name: 'promise',
      description: 'promise',
      parameters: z.object({}),
      execute: async () => ((inside.promise = current()), 'ok'),
    });
    const observable = tool({
      name: 'observable',
      description: 'observable',
      parameters: z.object({}),
      // Runs only when subscribed: the subscription must happen inside the scope.
      execute: () => defer(() => ((inside.observable = current()), from(['ok']))),
    });
    const model = scriptedModel([
      toolCallTurn([
        { name: 'sync', id: 'c1' },
        { name: 'promise', id: 'c2' },
        { name: 'observable', id: 'c3' },
      ]),
      textTurn('done'),
    ]);
    await collectEvents(
      runAgent({ model, prompt: 'go', runId: 'r', tools: [sync, promise, observable], instrument }),
    );
    expect(inside).toEqual({ sync: 'c1', promise: 'c2', observable: 'c3' });
    expect(entered).toEqual([
      { runId: 'r', toolCallId: 'c1', toolName: 'sync' },
      { runId: 'r', toolCallId: 'c2', toolName: 'promise' },
      // Once for the call to `execute`, once for the subscription of the Observable it returned.
      { runId: 'r', toolCallId: 'c3', toolName: 'observable' },
      { runId: 'r', toolCallId: 'c3', toolName: 'observable' },
    ]);
    expect(current()).toBeUndefined();
  });

  it('runs the middlewares inside the scope too', async () => {
    const { instrument, current } = recordingScope();
    const inMiddleware: (string | undefined)[] = [];
    const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'ok' });
    const model = scriptedModel([toolCallTurn({ name: 'echo', id: 'c9' }), textTurn('done')]);
    await collectEvents(
      runAgent({
        model,
        prompt: 'go',
        tools: [echo],
        instrument,
        middlewares: [
          (call, _ctx, next) =>
            new Observable((subscriber) => {
              inMiddleware.push(current());
              return next(call).subscribe(subscriber);
            }),
        ],
      }),
    );
    expect(inMiddleware).toEqual(['c9']);
  });

  it('keeps the events unchanged when the hook passes them on', async () => {
    const run = () => runAgent({ model: scriptedModel([textTurn('Hi')]), prompt: 'hi', runId: 'same' });
    const plain = await collectEvents(run());
    const instrumented = await collectEvents(
      runAgent({
        model: scriptedModel([textTurn('Hi')]),
        prompt: 'hi',
        runId: 'same',
        instrument: { events: (events$) => events$.pipe(map((e: AgentEvent) => e)) },
      }),
    );
    expect(instrumented.map((e) => e.type)).toEqual(plain.map((e) => e.type));
  });

  it.each([[42], [{ events: 'yes' }], [{ toolScope: 1 }]])(
    'refuses an instrument that is not one (%p) with an AgentConfigError',
    async (instrument) => {
      const run$ = runAgent({
        model: scriptedModel([textTurn('Hi')]),
        prompt: 'hi',
        instrument: instrument as unknown as RunInstrument,
      });
      await expect(collectEvents(run$)).rejects.toThrow(
        /Invalid option instrument: .*expected a RunInstrument/,
      );
    },
  );
});
