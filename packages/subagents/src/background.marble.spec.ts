import { Agent, contentText, runAgent, type AgentEvent, type UserMessage } from '@rxagent/core';
import { createTestScheduler, marbleModel, textTurn, timeline, toolCallTurn } from '@rxagent/testing';
import { filter, map, merge, type Observable } from 'rxjs';
import { deliverTaskResults, taskMessages } from './deliver-task-results.js';
import { subagentTool } from './subagent-tool.js';
import { TaskRuntime } from './task-runtime.js';
import { at } from './test-helpers.test.js';

const backgroundCall = toolCallTurn({
  name: 'subagent',
  args: { agent: 'scout', task: 'Map the repo', background: true, description: 'mapping' },
});

/** A: agent-start, U: a user message enters, Z: agent-end, T: a task ended. */
function letters(agent: Agent, tasks: TaskRuntime): Observable<string> {
  return merge(
    agent.events$.pipe(
      map((e: AgentEvent) =>
        e.type === 'agent-start'
          ? 'A'
          : e.type === 'agent-end'
            ? 'Z'
            : e.type === 'message-end' && e.message.role === 'user'
              ? 'U'
              : '',
      ),
    ),
    tasks.events$.pipe(map((e) => (e.type === 'task-end' ? 'T' : ''))),
  ).pipe(filter((l) => l !== ''));
}

const lastUser = (messages: readonly { role: string }[]) =>
  contentText([...messages].reverse().find((m) => m.role === 'user') as UserMessage);

describe('subagentTool background mode', () => {
  it('returns a task id at once; a result arriving mid-run is delivered as a follow-up', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const tasks = new TaskRuntime();
      const scout = marbleModel(cold, [at(10, textTurn('Three packages.'))]);
      const parent = marbleModel(cold, [
        at(0, backgroundCall),
        at(20, textTurn('Waiting for the scout.')),
        at(0, textTurn('The repo has three packages.')),
      ]);
      const agent = new Agent({
        model: parent,
        tools: [subagentTool({ agents: { scout: { description: 'Explores', model: scout } }, tasks })],
      });
      deliverTaskResults(tasks, agent);
      // Prompted at frame 1, once the expectation is subscribed.
      cold('-x').subscribe(() => void agent.prompt('How many packages?'));
      expectObservable(letters(agent, tasks)).toBe(timeline([1, 'AU'], [11, 'T'], [21, 'UZ']));
      flush();
      const started = contentText(parent.requests[1]?.messages.at(-1) as never);
      expect(started).toMatch(/^Started background task task-1 \(scout: mapping\)/);
      expect(lastUser(parent.requests[2]?.messages ?? [])).toBe(
        'Background task task-1 (subagent: scout: mapping) completed:\nThree packages.',
      );
      expect(tasks.output('task-1')).toContain('scout done (completed, 1 steps');
    });
  });

  it('in steer mode, a result arriving during a tool is delivered after it, before the run would stop', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const tasks = new TaskRuntime();
      const scout = marbleModel(cold, [at(3, textTurn('Found it.'))]);
      const slow = marbleModel(cold, [at(8, textTurn('slow done'))]);
      const parent = marbleModel(cold, [
        at(0, backgroundCall),
        at(0, toolCallTurn({ name: 'subagent', args: { agent: 'slow', task: 'Take a while' } })),
        at(0, textTurn('Got both.')),
      ]);
      const agent = new Agent({
        model: parent,
        tools: [
          subagentTool({
            agents: {
              scout: { description: 'Explores', model: scout },
              slow: { description: 'Slow', model: slow },
            },
            tasks,
          }),
        ],
      });
      deliverTaskResults(tasks, agent, { mode: 'steer' });
      void agent.prompt('Go');
      flush();
      // Steered in with the third model call, next to the slow call's result.
      const third = parent.requests[2]?.messages ?? [];
      expect(third.slice(-2).map((m) => m.role)).toEqual(['tool', 'user']);
      expect(lastUser(third)).toMatch(/^Background task task-1 .* completed:\nFound it\.$/);
    });
  });

  it('a result arriving after the parent went idle resumes it with the message', () => {
    createTestScheduler().run(({ cold, expectObservable, flush }) => {
      const tasks = new TaskRuntime();
      const scout = marbleModel(cold, [at(10, textTurn('Three packages.'))]);
      const parent = marbleModel(cold, [
        at(0, backgroundCall),
        at(0, textTurn('The scout is on it.')),
        at(0, textTurn('The scout says: three packages.')),
      ]);
      const agent = new Agent({
        model: parent,
        tools: [subagentTool({ agents: { scout: { description: 'Explores', model: scout } }, tasks })],
      });
      deliverTaskResults(tasks, agent);
      cold('-x').subscribe(() => void agent.prompt('How many packages?'));
      // The delivery (subscribed first) resumes the agent before this observer hears of the task's end.
      expectObservable(letters(agent, tasks)).toBe(timeline([1, 'AUZ'], [11, 'AUTZ']));
      flush();
      expect(contentText(agent.messages.at(-1) as never)).toBe('The scout says: three packages.');
      expect(agent.isRunning).toBe(false);
    });
  });

  it('reset() cancels the running background tasks; dispose() leaves nothing running', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const tasks = new TaskRuntime();
      const scout = marbleModel(cold, [at(10, textTurn('a')), at(10, textTurn('b'))]);
      const parent = marbleModel(cold, [
        at(0, backgroundCall),
        at(0, textTurn('Started.')),
        at(0, backgroundCall),
        at(0, textTurn('Started again.')),
      ]);
      const agent = new Agent({
        model: parent,
        tools: [subagentTool({ agents: { scout: { description: 'Explores', model: scout } }, tasks })],
      });
      deliverTaskResults(tasks, agent);
      void agent.prompt('Go');
      cold('---x').subscribe(() => agent.reset());
      cold('----x').subscribe(() => void agent.prompt('Again'));
      cold('-------x').subscribe(() => agent.dispose());
      flush();
      expect(scout.streams.map((s) => s.subscriptions)).toEqual([
        [{ subscribedFrame: 0, unsubscribedFrame: 3 }],
        [{ subscribedFrame: 4, unsubscribedFrame: 7 }],
      ]);
      expect(parent.requests).toHaveLength(4); // no delivery, no resumed run
      expect(() => tasks.start({ kind: 'x', description: 'x', work: cold('|') })).toThrow(/disposed/);
    });
  });

  it('without an Agent: taskMessages() feeds a runAgent run as its follow-ups', () => {
    createTestScheduler().run(({ cold, flush }) => {
      const tasks = new TaskRuntime();
      const scout = marbleModel(cold, [at(10, textTurn('Three packages.'))]);
      const parent = marbleModel(cold, [
        at(0, backgroundCall),
        at(20, textTurn('Waiting.')),
        at(0, textTurn('Three, says the scout.')),
      ]);
      const subagent = subagentTool({ agents: { scout: { description: 'Explores', model: scout } }, tasks });
      runAgent({
        model: parent,
        tools: [subagent],
        prompt: 'How many?',
        followUp$: taskMessages(tasks),
      }).subscribe();
      flush();
      expect(lastUser(parent.requests[2]?.messages ?? [])).toMatch(
        /^Background task task-1 .* completed:\nThree packages\.$/,
      );
    });
  });
});
