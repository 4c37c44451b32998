import { z } from 'zod';
import { map, tap, timer } from 'rxjs';
import {
  assistantMessage,
  createTestScheduler,
  finishEvent,
  marbleModel,
  textDelta,
  timeline,
  toMarbleLetters,
} from '@rxagent/testing';
import { RateLimitError } from '../errors/provider-errors.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { validateMessageSequence } from '../messages/message-sequence.js';
import type { AgentMessage, ToolCallPart } from '../messages/types.js';
import type { ModelEvent } from '../model/model-event.js';
import { withState } from '../state/with-state.js';
import { tool } from '../tools/tool.js';
import { ABORT_MARKER_TEXT, ABORT_MARKER_TOOL_USE_TEXT } from '../messages/abort-marker.js';
import { runAgent } from './run-agent.js';

const call = (id: string, ms: number): ToolCallPart => ({
  type: 'tool-call',
  id,
  name: 'wait',
  args: { ms },
});
const values: Record<string, ModelEvent> = {
  a: textDelta('Hel'),
  b: textDelta('lo'),
  t: { type: 'toolcall-start', index: 1, id: 'late', name: 'wait' },
  f: finishEvent(assistantMessage([{ type: 'text', text: 'Hello' }])),
  g: finishEvent(assistantMessage([call('c1', 100), call('c2', 300)], 'tool-calls')),
};
const wait = tool({
  name: 'wait',
  description: 'wait',
  parameters: z.object({ ms: z.number() }),
  execute: ({ ms }, { scheduler }) => timer(ms, scheduler).pipe(map(() => `waited ${ms}`)),
});

function abortAt(frame: number, controller: AbortController) {
  timer(frame).subscribe(() => controller.abort());
}

function transcript(events: AgentEvent[]): AgentMessage[] {
  return (events.at(-1) as AgentEndEvent).messages;
}

describe('abort through config.signal', () => {
  it('mid-stream: keeps the partial text, drops unfinished tool calls, appends the marker', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      const model = marbleModel(cold, ['10ms a 9ms t 9ms b 9ms (f|)'], values);
      abortAt(25, controller);
      const run$ = runAgent({ model, prompt: 'hi', signal: controller.signal }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSE'], [10, 'SU'], [20, 'U'], [25, 'EZ|']),
      );
    });
    const messages = transcript(events);
    expect(messages.at(-1)).toEqual(
      expect.objectContaining({
        role: 'assistant',
        stopReason: 'aborted',
        content: [
          { type: 'text', text: 'Hel' },
          { type: 'text', text: ABORT_MARKER_TEXT },
        ],
      }),
    );
    expect(validateMessageSequence(messages)).toEqual([]);
    expect(events.at(-1)).toMatchObject({ reason: 'user-requested' });
  });

  it('mid-tool: keeps finished results, cancels the rest, then the tool-use marker', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      const model = marbleModel(cold, ['10ms (g|)'], values);
      abortAt(200, controller);
      const run$ = runAgent({ model, tools: [wait], prompt: 'hi', signal: controller.signal }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSE'], [10, 'SEss'], [110, 'e'], [200, 'eSESESEZ|']),
      );
    });
    const messages = transcript(events);
    expect(messages.slice(-3)).toEqual([
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'c1',
        isError: false,
        content: [{ type: 'text', text: 'waited 100' }],
      }),
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'c2',
        isError: true,
        content: [{ type: 'text', text: 'Tool call was cancelled.' }],
      }),
      expect.objectContaining({
        role: 'assistant',
        stopReason: 'aborted',
        content: [{ type: 'text', text: ABORT_MARKER_TOOL_USE_TEXT }],
      }),
    ]);
    expect(validateMessageSequence(messages)).toEqual([]);
  });

  it('during a retry backoff: stops waiting and ends with the marker', () => {
    const events: AgentEvent[] = [];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      const model = marbleModel(
        cold,
        [{ marble: '10ms #', error: new RateLimitError('slow', { retryAfterMs: 5000 }) }, '(f|)'],
        values,
      );
      abortAt(1000, controller);
      const run$ = runAgent({ model, prompt: 'hi', signal: controller.signal }).pipe(
        tap((e) => events.push(e)),
      );
      expectObservable(run$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSE'], [10, 'R'], [1000, 'SEZ|']));
    });
    expect(transcript(events).at(-1)).toMatchObject({
      stopReason: 'aborted',
      content: [{ text: ABORT_MARKER_TEXT }],
    });
  });

  it('already aborted: ends at once without calling the model', () => {
    createTestScheduler().run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      controller.abort();
      const model = marbleModel(cold, ['(f|)'], values);
      expectObservable(
        runAgent({ model, prompt: 'hi', signal: controller.signal }).pipe(toMarbleLetters()),
      ).toBe('(ASEZ|)');
      expect(model.requests).toHaveLength(0);
    });
  });

  it('moves withState to cancelled with a valid transcript', () => {
    let state!: ReturnType<typeof withState>['state$'];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const controller = new AbortController();
      const model = marbleModel(cold, ['10ms (g|)'], values);
      abortAt(50, controller);
      const run = withState(runAgent({ model, tools: [wait], prompt: 'hi', signal: controller.signal }));
      state = run.state$;
      expectObservable(run.events$.pipe(toMarbleLetters())).toBe(
        timeline([0, 'ATSE'], [10, 'SEss'], [50, 'eeSESESEZ|']),
      );
    });
    expect(state.value.phase).toBe('cancelled');
    expect(state.value.stopReason).toBe('user-requested');
    expect(validateMessageSequence(state.value.messages)).toEqual([]);
    expect(state.value.pendingToolCalls).toEqual([]);
  });
});

describe('unsubscribe seen through withState', () => {
  it('closes the dangling tool calls of the kept transcript, keeping results that finished', () => {
    let state!: ReturnType<typeof withState>['state$'];
    createTestScheduler().run(({ cold, expectObservable }) => {
      const model = marbleModel(cold, ['10ms (g|)'], values);
      const run = withState(runAgent({ model, tools: [wait], prompt: 'hi' }));
      state = run.state$;
      expectObservable(run.events$.pipe(toMarbleLetters()), '150ms !').toBe(
        timeline([0, 'ATSE'], [10, 'SEss'], [110, 'e']),
      );
    });
    expect(state.value.phase).toBe('cancelled');
    const issues = validateMessageSequence(state.value.messages);
    expect(issues).toEqual([]);
    expect(state.value.messages.slice(-2)).toEqual([
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'c1',
        isError: false,
        content: [{ type: 'text', text: 'waited 100' }],
      }),
      expect.objectContaining({
        role: 'tool',
        toolCallId: 'c2',
        isError: true,
        content: [{ type: 'text', text: 'Tool call was cancelled.' }],
      }),
    ]);
  });
});
