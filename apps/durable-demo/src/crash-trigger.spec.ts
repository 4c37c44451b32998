import type { AgentEvent, AssistantMessage } from '@rxagent/core';
import { crashTrigger } from './crash-trigger.js';
import type { WorkerProgress } from './worker-progress.js';

const progress = (id: string, worker: string, stage: WorkerProgress['stage']): AgentEvent => ({
  type: 'tool-update',
  toolCallId: id,
  toolName: 'append_line',
  kind: 'progress',
  progress: { worker, stage, text: '…' },
});
const end = (id: string): AgentEvent => ({
  type: 'tool-end',
  toolCallId: id,
  toolName: 'append_line',
  args: {},
  result: { content: [], isError: false },
  isError: false,
  outcome: 'executed',
});
const message = { role: 'assistant', content: [] } as unknown as AssistantMessage;
const delta: AgentEvent = { type: 'message-update', message, delta: { kind: 'text', text: 'w ', index: 0 } };

function fire(trigger: (e: AgentEvent) => string | undefined, events: AgentEvent[]): (string | undefined)[] {
  return events.map(trigger);
}

it('tool: names the worker that reported the effect of call_3, once', () => {
  const events = [
    delta,
    progress('call_1', 'worker-b', 'started'),
    end('call_1'),
    progress('call_2', 'worker-b', 'effect-done'),
    end('call_2'),
    progress('call_3', 'worker-b', 'effect-done'),
    progress('call_3', 'worker-a', 'skipped'),
    progress('call_3', 'worker-a', 'effect-done'),
  ];
  expect(fire(crashTrigger('tool'), events)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
    'worker-b',
    undefined,
    undefined,
  ]);
});

it('model: names the worker of the last tool a few words into the model call after the second tool', () => {
  const events = [
    progress('call_1', 'worker-a', 'started'),
    delta,
    delta,
    delta,
    end('call_1'),
    progress('call_2', 'worker-a', 'effect-done'),
    end('call_2'),
    delta,
    delta,
    delta,
    delta,
  ];
  const fired = fire(crashTrigger('model'), events);
  expect(fired.filter((v) => v !== undefined)).toEqual(['worker-a']);
  expect(fired.indexOf('worker-a')).toBe(8);
});

it('fires no more than once, and never for progress it does not understand', () => {
  const odd: AgentEvent = {
    type: 'tool-update',
    toolCallId: 'call_3',
    toolName: 'x',
    kind: 'progress',
    progress: '50%',
  };
  const trigger = crashTrigger('tool');
  expect(trigger(odd)).toBeUndefined();
  expect(trigger(progress('call_3', 'worker-a', 'effect-done'))).toBe('worker-a');
  expect(trigger(progress('call_3', 'worker-b', 'effect-done'))).toBeUndefined();
});
