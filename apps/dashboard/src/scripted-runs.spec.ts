import { asyncScheduler, filter, firstValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { Agent, contentText, type AgentEvent, type ToolResultMessage } from '@rxagent/core';
import { textTurn } from '@rxagent/testing';
import { between, pacedModel, seededRandom, wordByWord, type ScriptedTiming } from './paced-model.js';
import { scriptedRunFactory, SCENARIOS } from './scripted-runs.js';

const FAST: ScriptedTiming = { firstEventMs: [0, 2], deltaMs: [0, 1], toolMs: [2, 6] };

function agentFor(scenario: string) {
  const factory = scriptedRunFactory({ timing: FAST, seed: 3 });
  const recipe = factory({ index: 0, scenario, scheduler: asyncScheduler });
  const agent = new Agent({ model: recipe.model, tools: recipe.tools, scheduler: asyncScheduler });
  const events: AgentEvent[] = [];
  agent.subscribe((event) => events.push(event));
  return { agent, recipe, events };
}

function untilApproval(agent: Agent): Promise<string> {
  return firstValueFrom(
    agent.events$.pipe(
      filter((e) => e.type === 'approval-request'),
      map((e) => e.toolCallId),
    ),
  );
}

function toolNames(events: AgentEvent[]): string[] {
  return events.flatMap((e) => (e.type === 'tool-end' ? [e.toolName] : []));
}

describe('scriptedRunFactory', () => {
  it('offers its scenarios and takes turns when none is asked for', () => {
    const factory = scriptedRunFactory({ timing: FAST });
    expect(factory.scenarios).toEqual(SCENARIOS);
    expect(factory.source).toBe('scripted');
    const labels = [0, 1, 2, 3, 4].map((index) => factory({ index, scheduler: asyncScheduler }).label);
    expect(labels).toEqual(['research #1', 'change #2', 'chat #3', 'long #4', 'research #5']);
    expect(factory({ index: 0, prompt: '  Hi  ', scheduler: asyncScheduler }).prompt).toBe('Hi');
  });

  it('research: searches, reads two files, then answers', async () => {
    const { agent, recipe, events } = agentFor('research');
    const result = await agent.prompt(recipe.prompt);
    expect(result.reason).toBe('completed');
    expect(result.steps).toBe(3);
    expect(toolNames(events).sort()).toEqual(['read_file', 'read_file', 'search_docs']);
    expect(events.filter((e) => e.type === 'tool-update').length).toBeGreaterThan(3);
    expect(agent.state$.value.phase).toBe('done');
  });

  it('change: waits for approval of write_file, then writes, tests and summarizes', async () => {
    const { agent, recipe, events } = agentFor('change');
    const approval = untilApproval(agent);
    const run = agent.prompt(recipe.prompt);
    const id = await approval;
    expect(agent.state$.value.pendingApprovals.map((a) => a.toolName)).toEqual(['write_file']);
    expect(agent.approve(id)).toBe(true);
    const result = await run;
    expect(result.reason).toBe('completed');
    expect(toolNames(events)).toEqual(['read_file', 'write_file', 'run_tests']);
  });

  it('change: a rejected write stops the run with the reason in the transcript', async () => {
    const { agent, recipe } = agentFor('change');
    const approval = untilApproval(agent);
    const run = agent.prompt(recipe.prompt);
    agent.reject(await approval, 'not today');
    const result = await run;
    expect(result.reason).toBe('rejected');
    const rejected = result.messages.find((m): m is ToolResultMessage => m.role === 'tool' && m.isError);
    expect(contentText(rejected as ToolResultMessage)).toContain('not today');
  });

  it('chat: streams the answer word by word', async () => {
    const { agent, recipe, events } = agentFor('chat');
    await agent.prompt(recipe.prompt);
    const deltas = events.filter((e) => e.type === 'message-update');
    expect(deltas.length).toBeGreaterThan(50);
    expect(agent.state$.value.phase).toBe('done');
  });

  it('long: can be aborted while it waits for approval', async () => {
    const { agent, recipe } = agentFor('long');
    const approval = untilApproval(agent);
    const run = agent.prompt(recipe.prompt);
    await approval;
    agent.abort();
    expect((await run).reason).toBe('user-requested');
    expect(agent.state$.value.phase).toBe('cancelled');
  });
});

describe('pacedModel', () => {
  it('emits each event after a wait drawn from the timing, on the scheduler', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      const model = pacedModel([wordByWord(textTurn('a b', { chunks: ['a b'] }))], {
        timing: { firstEventMs: [100, 100], deltaMs: [10, 30] },
        random: () => 0.5,
        scheduler,
      });
      const types = model.stream({ messages: [] }).pipe(map((e) => e.type[0] as string));
      // first after 100 ms, then one every 20 ms: 'a ', 'b', usage, finish
      expectObservable(types).toBe('100ms t 19ms t 19ms u 19ms (f|)');
    });
  });
});

describe('helpers', () => {
  it('seededRandom repeats for a seed and differs between seeds', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(1)).toEqual(draw(1));
    expect(draw(1)).not.toEqual(draw(2));
    for (const x of draw(9)) expect(x >= 0 && x < 1).toBe(true);
  });

  it('between draws whole milliseconds inside the range', () => {
    expect(between(() => 0, [20, 60])).toBe(20);
    expect(between(() => 0.999, [20, 60])).toBe(60);
    expect(between(() => 0.5, [5, 5])).toBe(5);
  });

  it('wordByWord splits text deltas into words and keeps the rest', async () => {
    const turn = wordByWord(textTurn('Hello brave  world', { chunks: ['Hello brave  world'] }));
    const pieces = turn.events.flatMap((e) => (e.type === 'text-delta' ? [e.text] : [e.type]));
    expect(pieces).toEqual(['Hello ', 'brave  ', 'world', 'usage', 'finish']);
    const model = pacedModel([turn], { timing: FAST, random: () => 0, scheduler: asyncScheduler });
    const events = await firstValueFrom(model.stream({ messages: [] }).pipe(toArray()));
    expect(events.at(-1)?.type).toBe('finish');
  });
});
