import { z } from 'zod';
import { Observable, throwError, VirtualTimeScheduler } from 'rxjs';
import {
  Agent,
  contentText,
  runAgent,
  tool,
  withState,
  type AgentEvent,
  type RunAgentConfig,
  type ToolMiddleware,
} from '@rxagent/core';
import { validateMessageSequence } from '@rxagent/core/provider';
import { faultModel } from './fault-model.js';
import { faultTools } from './fault-tools.js';
import { installProcessGuards } from './process-guards.js';
import { finalTextEvents, runToEnd, syncModel, toolCallEvents, toolResults } from './sync-run.js';
import { driveVirtualTime, flushReports } from './virtual-time.js';

const echo = tool({ name: 'echo', description: 'echo', parameters: z.object({}), execute: () => 'echoed' });
const oneCallThenText = () =>
  syncModel([{ events: toolCallEvents([{ name: 'echo' }]) }, { events: finalTextEvents('final') }]);

function lastEvent(events: AgentEvent[]) {
  return events[events.length - 1];
}

describe('listener and operator faults', () => {
  const guard = installProcessGuards();
  afterAll(() => guard.uninstall());
  beforeEach(async () => {
    await flushReports();
    guard.faults.rxjsUnhandledErrors.length = 0;
  });

  it('a throwing Agent.subscribe listener is isolated: the run and the other listeners go on', async () => {
    const reported: string[] = [];
    const agent = new Agent({
      model: oneCallThenText(),
      tools: [echo],
      onError: (_e, where) => reported.push(where),
    });
    const seen: string[] = [];
    agent.subscribe(() => {
      throw new Error('listener bug');
    });
    agent.subscribe((event) => seen.push(event.type));
    const result = await agent.prompt('go');
    expect(result.reason).toBe('completed');
    expect(seen[0]).toBe('agent-start');
    expect(seen.at(-1)).toBe('agent-end');
    expect(reported).toHaveLength(seen.length);
    expect(reported[0]).toMatch(/listener threw on "agent-start"/);
    expect(agent.state$.value.phase).toBe('done');
    expect(validateMessageSequence(agent.messages)).toEqual([]);
  });

  it('a throwing subscriber of withState(run$).events$ does not stop the run or the other subscriber', async () => {
    const scheduler = new VirtualTimeScheduler();
    const model = faultModel([{ kind: 'tools', calls: ['fast'], text: true }], scheduler, 1);
    const kit = faultTools(scheduler, 1, 1, true);
    const { events$, state$ } = withState(runAgent({ model, tools: kit.tools, prompt: 'go', scheduler }));
    const thrownOn: string[] = [];
    const seen: string[] = [];
    events$.subscribe((event) => {
      thrownOn.push(event.type);
      throw new Error('subscriber bug');
    });
    events$.subscribe((event) => seen.push(event.type));
    await driveVirtualTime(scheduler);
    expect(thrownOn[0]).toBe('agent-start');
    expect(thrownOn.at(-1)).toBe('agent-end');
    // The second subscriber came after the synchronous start, then saw everything else.
    expect(seen).toEqual(thrownOn.slice(thrownOn.length - seen.length));
    expect(seen).toContain('tool-end');
    expect(state$.value.phase).toBe('done');
    // RxJS reports each throw on its unhandled-error hook; nothing is lost silently.
    await flushReports();
    expect(guard.faults.rxjsUnhandledErrors).toHaveLength(thrownOn.length);
  });

  it('a throwing stop predicate becomes a warning and counts as "do not stop"', async () => {
    const end = await runToEnd({
      model: oneCallThenText(),
      tools: [echo],
      prompt: 'go',
      stopWhen: function brokenPredicate() {
        throw new Error('predicate bug');
      },
    });
    const warnings = end.events.flatMap((e) => (e.type === 'warning' ? [e.message] : []));
    expect(warnings[0]).toMatch(/Stop predicate "brokenPredicate" threw and was ignored: predicate bug/);
    expect(lastEvent(end.events)).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
  });

  it('a throwing stop guard becomes a warning and lets the run stop', async () => {
    const end = await runToEnd({
      model: syncModel([{ events: finalTextEvents() }]),
      prompt: 'go',
      guardStop: () => {
        throw new Error('guard bug');
      },
    });
    expect(end.events.some((e) => e.type === 'warning' && /guard bug/.test(e.message))).toBe(true);
    expect(lastEvent(end.events)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  const hookCases: [string, Partial<RunAgentConfig>, RegExp][] = [
    [
      'a middleware that throws',
      {
        middlewares: [
          () => {
            throw new Error('middleware bug');
          },
        ],
      },
      /middleware bug/,
    ],
    [
      'a middleware whose Observable errors',
      { middlewares: [(() => throwError(() => new Error('middleware stream bug'))) as ToolMiddleware] },
      /middleware stream bug/,
    ],
    [
      'an approver that throws',
      {
        approvalRequired: ['echo'],
        approver: () => {
          throw new Error('approver bug');
        },
      },
      /approver bug/,
    ],
    [
      'an approver whose Promise rejects',
      { approvalRequired: ['echo'], approver: () => Promise.reject(new Error('approver promise bug')) },
      /approver promise bug/,
    ],
    [
      'an approver whose Observable errors',
      {
        approvalRequired: ['echo'],
        approver: () => new Observable<boolean>((s) => s.error(new Error('approver stream bug'))),
      },
      /approver stream bug/,
    ],
    [
      'a tool gate that throws',
      {
        toolGate: () => {
          throw new Error('gate bug');
        },
      },
      /gate bug/,
    ],
  ];
  for (const [what, hooks, message] of hookCases) {
    it(`${what}: the call gets an error result and the run goes on`, async () => {
      const end = await runToEnd({ model: oneCallThenText(), tools: [echo], prompt: 'go', ...hooks });
      expect(end.outcome).toBe('complete');
      const [result] = toolResults(end.events);
      expect(result?.isError).toBe(true);
      expect(contentText(result!)).toMatch(message);
      expect(lastEvent(end.events)).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
      await flushReports();
      expect(guard.faults.rxjsUnhandledErrors).toEqual([]);
    });
  }

  it('throwing validate and preview hooks: a refusal and an ignored preview, the run goes on', async () => {
    const picky = tool({
      name: 'echo',
      description: 'echo',
      parameters: z.object({}),
      validate: () => {
        throw new Error('validate bug');
      },
      preview: () => {
        throw new Error('preview bug');
      },
      execute: () => 'never',
    });
    const end = await runToEnd({ model: oneCallThenText(), tools: [picky], prompt: 'go' });
    expect(contentText(toolResults(end.events)[0]!)).toMatch(/validate bug/);
    expect(lastEvent(end.events)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  describe('a tool that never settles and ignores its signal', () => {
    let ignoredAborts = 0;
    const stuck = (timeoutMs?: number) =>
      tool({
        name: 'echo',
        description: 'hangs forever',
        parameters: z.object({}),
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
        execute: (_args, { signal }) => {
          signal.addEventListener('abort', () => ignoredAborts++);
          return new Promise<string>(() => undefined);
        },
      });
    const start = (timeoutMs?: number) => {
      const scheduler = new VirtualTimeScheduler();
      const controller = new AbortController();
      const { events$, state$ } = withState(
        runAgent({
          model: oneCallThenText(),
          tools: [stuck(timeoutMs)],
          prompt: 'go',
          scheduler,
          signal: controller.signal,
        }),
      );
      const events: AgentEvent[] = [];
      let ended = false;
      const sub = events$.subscribe({
        next: (e) => events.push(e),
        error: () => (ended = true),
        complete: () => (ended = true),
      });
      return { scheduler, controller, state$, events, sub, isEnded: () => ended };
    };
    beforeEach(() => (ignoredAborts = 0));

    it('with a per-tool timeout: the call times out (its signal aborted) and the run goes on', async () => {
      const run = start(100);
      await driveVirtualTime(run.scheduler, run.isEnded);
      expect(run.isEnded()).toBe(true);
      expect(contentText(toolResults(run.events)[0]!)).toBe('Tool "echo" timed out after 100 ms.');
      expect(ignoredAborts).toBe(1);
      expect(lastEvent(run.events)).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
      expect(run.scheduler.now()).toBe(100);
      expect(run.scheduler.actions).toHaveLength(0);
    });

    it('on abort: the run ends at once with a cancelled result and the abort marker', async () => {
      const run = start();
      run.scheduler.schedule(() => run.controller.abort(), 50);
      await driveVirtualTime(run.scheduler, run.isEnded);
      expect(run.isEnded()).toBe(true);
      expect(run.scheduler.now()).toBe(50);
      expect(lastEvent(run.events)).toMatchObject({ type: 'agent-end', reason: 'user-requested' });
      expect(contentText(toolResults(run.events)[0]!)).toBe('Tool call was cancelled.');
      expect(run.state$.value.phase).toBe('cancelled');
      expect(validateMessageSequence(run.state$.value.messages)).toEqual([]);
      expect(run.scheduler.actions).toHaveLength(0);
      expect(ignoredAborts).toBe(1);
    });

    it('on unsubscribe: the run is cancelled, its transcript closed, its timeout timer gone', async () => {
      const run = start();
      run.scheduler.schedule(() => run.sub.unsubscribe(), 50);
      await driveVirtualTime(run.scheduler, () => run.sub.closed);
      expect(run.state$.value.phase).toBe('cancelled');
      expect(validateMessageSequence(run.state$.value.messages)).toEqual([]);
      expect(run.scheduler.actions).toHaveLength(0);
      expect(ignoredAborts).toBe(1);
    });
  });
});
