import { runAgent, tool, type AgentEvent } from '@rxagent/core';
import type { AgentEndEvent } from '@rxagent/core/events';
import { createTestScheduler, marbleModel, textTurn, timeline, toolCallTurn } from '@rxagent/testing';
import { filter, map, tap, timer, type OperatorFunction } from 'rxjs';
import { z } from 'zod';
import { subagentTool } from './subagent-tool.js';
import { at } from './test-helpers.test.js';

/** S: a sub-run starts, E: a sub-run ends, e: the parent's tool call ends, Z: the parent's agent-end. */
const letters: OperatorFunction<AgentEvent, string> = (events$) =>
  events$.pipe(
    map((e) => {
      if (e.type === 'subrun') {
        return e.event.type === 'agent-start' ? 'S' : e.event.type === 'agent-end' ? 'E' : '';
      }
      return e.type === 'tool-end' ? 'e' : e.type === 'agent-end' ? 'Z' : '';
    }),
    filter((letter) => letter !== ''),
  );

const parallelCall = toolCallTurn({
  name: 'subagent',
  args: {
    tasks: [
      { agent: 'a', task: 'first' },
      { agent: 'b', task: 'second' },
    ],
  },
});

describe('subagentTool in virtual time', () => {
  it('parallel: sub-runs run at once, the call ends with the slowest', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const a = marbleModel(cold, [at(5, textTurn('A'))]);
      const b = marbleModel(cold, [at(9, textTurn('B'))]);
      const subagent = subagentTool({
        agents: { a: { description: 'A', model: a }, b: { description: 'B', model: b } },
      });
      const parent = marbleModel(cold, [at(0, parallelCall), at(0, textTurn('Ok.'))]);
      expectObservable(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }).pipe(letters)).toBe(
        timeline([0, 'SS'], [5, 'E'], [9, 'EeZ|']),
      );
    });
  });

  it('parallel: maxConcurrency 1 runs them one after the other', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const a = marbleModel(cold, [at(3, textTurn('A'))]);
      const b = marbleModel(cold, [at(5, textTurn('B'))]);
      const subagent = subagentTool({
        agents: { a: { description: 'A', model: a }, b: { description: 'B', model: b } },
        maxConcurrency: 1,
      });
      const parent = marbleModel(cold, [at(0, parallelCall), at(0, textTurn('Ok.'))]);
      expectObservable(runAgent({ model: parent, tools: [subagent], prompt: 'Go' }).pipe(letters)).toBe(
        timeline([0, 'S'], [3, 'ES'], [8, 'EeZ|']),
      );
    });
  });

  it('chain: each step starts when the previous one ended, in order', () => {
    const order: string[] = [];
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const a = marbleModel(cold, [at(4, textTurn('A'))]);
      const b = marbleModel(cold, [at(2, textTurn('B'))]);
      const subagent = subagentTool({
        agents: { a: { description: 'A', model: a }, b: { description: 'B', model: b } },
      });
      const chain = toolCallTurn({
        name: 'subagent',
        args: {
          chain: [
            { agent: 'b', task: 'one' },
            { agent: 'a', task: 'two after {previous}' },
          ],
        },
      });
      const parent = marbleModel(cold, [at(0, chain), at(0, textTurn('Ok.'))]);
      const run$ = runAgent({ model: parent, tools: [subagent], prompt: 'Go' }).pipe(
        tap((e) => {
          if (e.type === 'subrun' && e.event.type === 'agent-start')
            order.push(e.path[e.path.length - 1]?.agent ?? '');
        }),
      );
      expectObservable(run$.pipe(letters)).toBe(timeline([0, 'S'], [2, 'ES'], [6, 'EeZ|']));
      flush();
      expect(a.requests[0]?.messages[0]).toMatchObject({ content: 'two after B' });
      expect(a.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 2, unsubscribedFrame: 6 }]);
    });
    expect(order).toEqual(['b', 'a']);
  });

  it('unsubscribing the parent tears the sub-run down: no sub-run model call or tool afterwards', () => {
    const ran: string[] = [];
    const probe = tool({
      name: 'probe',
      description: 'probe',
      parameters: z.object({}),
      execute: () => {
        ran.push('probe');
        return 'ok';
      },
    });
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const scout = marbleModel(cold, [
        at(10, toolCallTurn({ name: 'probe', args: {} })),
        at(0, textTurn('done')),
      ]);
      const subagent = subagentTool({
        agents: { scout: { description: 'S', model: scout, tools: [probe] } },
      });
      const parent = marbleModel(cold, [
        at(0, toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'x' } })),
      ]);
      expectObservable(
        runAgent({ model: parent, tools: [subagent], prompt: 'Go' }).pipe(letters),
        '^ 4ms !',
      ).toBe('S');
      flush();
      expect(scout.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 5 }]);
    });
    expect(ran).toEqual([]);
  });

  it("aborting the parent's signal aborts the sub-run too, and the parent ends cleanly", () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, flush }) => {
      const scout = marbleModel(cold, [at(10, textTurn('late'))]);
      const subagent = subagentTool({ agents: { scout: { description: 'S', model: scout } } });
      const parent = marbleModel(cold, [
        at(0, toolCallTurn({ name: 'subagent', args: { agent: 'scout', task: 'x' } })),
      ]);
      const controller = new AbortController();
      timer(6).subscribe(() => controller.abort());
      runAgent({ model: parent, tools: [subagent], prompt: 'Go', signal: controller.signal }).subscribe((e) =>
        events.push(e),
      );
      flush();
      expect(scout.streams[0]?.subscriptions).toEqual([{ subscribedFrame: 0, unsubscribedFrame: 6 }]);
      expect(scout.requests).toHaveLength(1);
    });
    expect((events.at(-1) as AgentEndEvent).reason).toBe('user-requested');
    // The sub-run's events reached the parent's stream until the abort, nothing after it.
    const inner = events.flatMap((e) => (e.type === 'subrun' ? [e.event.type] : []));
    expect(inner.filter((t) => t === 'agent-start' || t === 'turn-start')).toEqual([
      'agent-start',
      'turn-start',
    ]);
    expect(inner).not.toContain('agent-end');
  });
});
