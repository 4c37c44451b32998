import type { AgentEvent, AssistantMessage } from '@rxagent/core';
import { RunPrinter } from './run-printer.js';

const partial = (text: string) =>
  ({ role: 'assistant', content: [{ type: 'text', text }] }) as unknown as AssistantMessage;
const delta = (soFar: string, text: string): AgentEvent => ({
  type: 'message-update',
  message: partial(soFar),
  delta: { kind: 'text', text, index: 0 },
});
const progress = (worker: string, text: string): AgentEvent => ({
  type: 'tool-update',
  toolCallId: 'call_1',
  toolName: 'append_line',
  kind: 'progress',
  progress: { worker, stage: 'effect-done', text },
});

function printed(feed: (printer: RunPrinter) => void): { text: string; printer: RunPrinter } {
  let text = '';
  const printer = new RunPrinter((t) => (text += t));
  feed(printer);
  return { text, printer };
}

it('prints steps, streamed words on one line, tool calls with their worker, and results', () => {
  const { text, printer } = printed((p) => {
    p.event({ type: 'turn-start', step: 1 });
    p.event(delta('Log ', 'Log '));
    p.event(delta('Log it.', 'it.'));
    p.event({ type: 'tool-start', toolCallId: 'call_1', toolName: 'append_line', args: { line: 'x' } });
    p.event(progress('worker-a', 'appended "x"'));
    p.event({
      type: 'tool-end',
      toolCallId: 'call_1',
      toolName: 'append_line',
      args: { line: 'x' },
      result: { content: [{ type: 'text', text: '"x" is in the log' }], isError: false },
      isError: false,
      outcome: 'executed',
    });
  });
  expect(text).toBe(
    [
      'step 1',
      '  model │ Log it.',
      '  → append_line {"line":"x"}  [call_1]',
      '    worker-a │ appended "x"',
      '  ✓ append_line: "x" is in the log',
      '',
    ].join('\n'),
  );
  expect(printer.workers).toEqual(['worker-a']);
});

it('after a note in mid-stream, a stream that starts over is printed from its start on a new line', () => {
  const { text } = printed((p) => {
    p.event(delta('Next, ', 'Next, '));
    p.note('✗ kill -9 worker-a');
    p.event(delta('Next, ', 'Next, '));
    p.event(delta('Next, step.', 'step.'));
  });
  expect(text).toBe('  model │ Next, \n✗ kill -9 worker-a\n  model │ Next, step.');
});

it('says when another worker takes the run over', () => {
  const { text, printer } = printed((p) => {
    p.event(progress('worker-a', 'one'));
    p.event(progress('worker-b', 'two'));
    p.event(progress('worker-b', 'three'));
  });
  expect(text.split('\n').filter((l) => l.includes('took the run over'))).toEqual([
    '  ↪ worker-b took the run over: it replayed the recorded steps from PostgreSQL and carries on',
  ]);
  expect(printer.workers).toEqual(['worker-a', 'worker-b']);
});
