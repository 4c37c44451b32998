import { lastValueFrom, NEVER, of, Subject, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { z } from 'zod';
import { scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { AgentStop } from '../errors/agent-stop.js';
import type { AgentEvent, ToolEndEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { withState } from '../state/with-state.js';
import { tool } from './tool.js';

const ok = tool({ name: 'ok', description: 'ok', parameters: z.object({}), execute: () => 'fine' });
const boom = tool({
  name: 'boom',
  description: 'throws',
  parameters: z.object({}),
  execute: () => {
    throw new TypeError('nope');
  },
});
const stop = tool({
  name: 'stop',
  description: 'stops the run',
  parameters: z.object({}),
  concurrencySafe: false,
  execute: () => {
    throw new AgentStop('enough');
  },
});
const slow = tool({
  name: 'slow',
  description: 'never ends',
  parameters: z.object({}),
  execute: () => NEVER,
});
const listen = tool({
  name: 'listen',
  description: 'waits until a message cuts it off',
  parameters: z.object({}),
  interrupt: 'cancel',
  execute: () => NEVER,
});

/** The outcome of each call of one turn, and the state fold's record of them. */
async function outcomes(calls: { name: string; args?: unknown }[], config: Partial<RunAgentConfig> = {}) {
  const model = scriptedModel([toolCallTurn(calls), textTurn('done')]);
  const { events$, state$ } = withState(
    runAgent({ model, tools: [ok, boom, stop, slow, listen], prompt: 'go', maxSteps: 2, ...config }),
  );
  const events = await lastValueFrom(events$.pipe(toArray()));
  const ends = events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
  const byCall = ends.map((e) => [e.toolName, e.outcome]);
  expect(Object.values(state$.value.toolOutcomes)).toEqual(ends.map((e) => e.outcome));
  return byCall;
}

describe('tool-end outcome', () => {
  it('executed, or failed: a throw, an unknown tool', async () => {
    expect(await outcomes([{ name: 'ok' }, { name: 'boom' }, { name: 'nothing' }])).toEqual([
      ['ok', 'executed'],
      ['boom', 'failed'],
      ['nothing', 'failed'],
    ]);
  });

  it('denied by the gate and by the breaker; rejected by a person', async () => {
    expect(
      await outcomes([{ name: 'ok' }], { toolGate: () => ({ allowed: false, reason: 'not today' }) }),
    ).toEqual([['ok', 'denied']]);
    expect(
      await outcomes([{ name: 'boom' }, { name: 'boom' }], { maxToolErrors: 1, toolConcurrency: 1 }),
    ).toEqual([
      ['boom', 'failed'],
      ['boom', 'denied'],
    ]);
    expect(await outcomes([{ name: 'ok' }], { approvalRequired: ['ok'], approver: () => false })).toEqual([
      ['ok', 'rejected'],
    ]);
  });

  it('skipped after a tool stopped the run; interrupted as a durable worker seals it', async () => {
    expect(await outcomes([{ name: 'stop' }, { name: 'ok' }])).toEqual([
      ['stop', 'executed'],
      ['ok', 'skipped'],
    ]);
    const sealed = {
      content: [{ type: 'text' as const, text: 'interrupted' }],
      isError: true,
      errorType: 'interrupted',
    };
    expect(await outcomes([{ name: 'ok' }], { middlewares: [() => of(sealed)] })).toEqual([
      ['ok', 'interrupted'],
    ]);
  });

  it('cancelled by a steering message (interrupt: cancel)', async () => {
    const steering$ = new Subject<string>();
    const model = scriptedModel([toolCallTurn([{ name: 'listen' }]), textTurn('done')]);
    const events: AgentEvent[] = [];
    const run = runAgent({ model, tools: [listen], prompt: 'go', steering$ });
    await new Promise<void>((resolve) =>
      run.subscribe({
        next: (e) => {
          events.push(e);
          if (e.type === 'tool-start') steering$.next('stop listening');
        },
        complete: resolve,
      }),
    );
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({ outcome: 'cancelled' });
  });

  it('timed out (virtual time), and cancelled when the run is aborted mid-call', () => {
    new TestScheduler((a, e) => expect(a).toEqual(e)).run(({ flush }) => {
      const model = scriptedModel([toolCallTurn([{ name: 'slow' }]), textTurn('done')]);
      const events: AgentEvent[] = [];
      runAgent({ model, tools: [slow], prompt: 'go', toolTimeoutMs: 1000 }).subscribe((e) => events.push(e));
      flush();
      expect(events.find((e) => e.type === 'tool-end')).toMatchObject({
        outcome: 'timed-out',
        isError: true,
      });
    });
    const abort = new AbortController();
    const model = scriptedModel([toolCallTurn([{ name: 'slow' }])]);
    const { events$, state$ } = withState(
      runAgent({ model, tools: [slow], prompt: 'go', signal: abort.signal }),
    );
    const ends: AgentEvent[] = [];
    events$.subscribe((e) => {
      if (e.type === 'tool-start') abort.abort();
      if (e.type === 'tool-end') ends.push(e);
    });
    expect(ends).toMatchObject([{ outcome: 'cancelled' }]);
    expect(Object.values(state$.value.toolOutcomes)).toEqual(['cancelled']);
  });
});
