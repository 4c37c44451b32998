import { AgentConfigError, runAgent, tool, type AgentEvent } from '@rxagent/core';
import { asyncScheduler, lastValueFrom, toArray } from 'rxjs';
import { z } from 'zod';
import { textTurn, toolCallTurn } from './model-builders.js';
import { scriptedModel } from './scripted-model.js';
import { createTestScheduler } from './test-scheduler.js';
import { latencyMs, scheduledTool, virtualTool } from './virtual-tool.js';

const search = virtualTool({
  name: 'search',
  description: 'Search the docs',
  parameters: z.object({ q: z.string() }),
  latency: '300ms',
  execute: ({ q }) => `3 results for ${q}`,
});

const asyncLookup = tool({
  name: 'lookup',
  description: 'Looks something up',
  parameters: z.object({}),
  execute: async () => 'found',
});

/** Each event with the virtual time it came at. */
function timed(run: (now: () => number) => ReturnType<typeof runAgent>): [number, AgentEvent][] {
  const scheduler = createTestScheduler();
  const seen: [number, AgentEvent][] = [];
  scheduler.run(({ flush }) => {
    run(() => scheduler.now()).subscribe((e) => seen.push([scheduler.now(), e]));
    flush();
  });
  return seen;
}

describe('virtualTool', () => {
  it('takes its latency on the run scheduler, in virtual time', () => {
    const seen = timed(() =>
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'search', args: { q: 'rx' } }), textTurn('ok')]),
        tools: [search],
        prompt: 'go',
      }),
    );
    const start = seen.find(([, e]) => e.type === 'tool-start');
    const end = seen.find(([, e]) => e.type === 'tool-end');
    expect(start?.[0]).toBe(0);
    expect(end?.[0]).toBe(300);
    expect(end?.[1]).toMatchObject({ result: { content: [{ type: 'text', text: '3 results for rx' }] } });
    expect(seen.at(-1)?.[1]).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('turns an async tool into a scheduled one with scheduledTool', () => {
    const lookup = scheduledTool(asyncLookup, '2s', () => 'found at once');
    const seen = timed(() =>
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'lookup' }), textTurn('ok')]),
        tools: [lookup],
        prompt: 'go',
      }),
    );
    const end = seen.find(([, e]) => e.type === 'tool-end');
    expect(end?.[0]).toBe(2000);
    expect(end?.[1]).toMatchObject({ isError: false, result: { content: [{ text: 'found at once' }] } });
    expect(seen.some(([, e]) => e.type === 'warning')).toBe(false);
  });

  it('reads latencies as ms, s or m, and refuses anything else with a typed error', () => {
    expect(latencyMs('300ms')).toBe(300);
    expect(latencyMs('1.5s')).toBe(1500);
    expect(latencyMs('2m')).toBe(120_000);
    expect(latencyMs(40)).toBe(40);
    expect(() => latencyMs('soon' as never)).toThrow(AgentConfigError);
    expect(() => latencyMs(-1)).toThrow(/'300ms'/);
  });
});

describe('an async tool under virtual time', () => {
  it('gets one warning per run saying what to do, instead of a silent timeout', () => {
    const seen = timed(() =>
      runAgent({
        model: scriptedModel([
          toolCallTurn([{ name: 'lookup' }, { name: 'lookup' }]),
          toolCallTurn({ name: 'lookup' }),
          textTurn('ok'),
        ]),
        tools: [asyncLookup],
        prompt: 'go',
      }),
    );
    const warnings = seen.filter(([, e]) => e.type === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.[0]).toBe(0);
    expect(warnings[0]?.[1]).toMatchObject({
      message: expect.stringContaining('Tool "lookup" returned a Promise under a virtual-time scheduler'),
    });
    expect((warnings[0]?.[1] as { message: string }).message).toContain('virtualTool');
  });

  it('gets no warning in real time', async () => {
    const events = await lastValueFrom(
      runAgent({
        model: scriptedModel([toolCallTurn({ name: 'lookup' }), textTurn('ok')]),
        tools: [asyncLookup],
        prompt: 'go',
        scheduler: asyncScheduler,
      }).pipe(toArray()),
    );
    expect(events.filter((e) => e.type === 'warning')).toEqual([]);
    expect(events.find((e) => e.type === 'tool-end')).toMatchObject({ isError: false });
  });
});
