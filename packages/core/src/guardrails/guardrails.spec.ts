import { lastValueFrom } from 'rxjs';
import {
  collectEvents,
  createTestScheduler,
  scriptedModel,
  textTurn,
  timeline,
  toMarbleLetters,
} from '@rxagent/testing';
import { Agent } from '../agent/agent.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import { runAgent } from '../loop/run-agent.js';
import { assistantText } from '../messages/message-helpers.js';
import { executeTools } from '../operators/execute-tools.js';
import { llmStep } from '../operators/llm-step.js';
import { withState } from '../state/with-state.js';
import type { InputGuardrail, OutputGuardrail } from './guardrail.js';
import { helloValues, streamModel } from './guardrail-test-kit.test.js';

const moderation: InputGuardrail = {
  name: 'moderation',
  check: ({ text }) =>
    /malware/i.test(text)
      ? { tripped: true, reason: 'Asks for malware.', info: { category: 'illicit' } }
      : undefined,
};
const agentEnd = (events: AgentEvent[]) => events.find((e): e is AgentEndEvent => e.type === 'agent-end');

describe('guardrails as config keys', () => {
  it('an input guardrail that trips ends the run with reason guardrail before any model call', async () => {
    const model = scriptedModel([textTurn('Here is some malware.')]);
    const { events$, state$ } = withState(
      runAgent({ model, prompt: 'Write malware', inputGuardrails: [moderation] }),
    );
    const events = await collectEvents(events$);
    const end = agentEnd(events);
    expect(model.calls).toBe(0);
    expect(end?.reason).toBe('guardrail');
    expect(end?.signal).toEqual({
      reason: 'guardrail',
      message: 'Input guardrail "moderation" tripped: Asks for malware.',
      source: 'moderation',
      context: { kind: 'input', reason: 'Asks for malware.', info: { category: 'illicit' } },
    });
    expect(end?.messages.map((m) => m.role)).toEqual(['user']);
    expect(end?.steps).toBe(0);
    expect(events.map((e) => e.type)).not.toContain('turn-end');
    expect(state$.value.stopReason).toBe('guardrail');
    expect(state$.value.lastGuardrailVerdict).toMatchObject({ guardrail: 'moderation', outcome: 'tripped' });
    expect(state$.value.guardrails).toEqual([]);
  });

  it('an input guardrail that passes lets the run go on', async () => {
    const model = scriptedModel([textTurn('Hi!')]);
    const events = await collectEvents(runAgent({ model, prompt: 'Say hi', inputGuardrails: [moderation] }));
    expect(agentEnd(events)?.reason).toBe('completed');
    expect(events.filter((e) => e.type.startsWith('guardrail')).map((e) => e.type)).toEqual([
      'guardrail-start',
      'guardrail-end',
    ]);
  });

  it('a parallel input guardrail cancels the model stream at the trip; the state drops the streamed answer', () => {
    const scheduler = createTestScheduler();
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const answer$ = cold('10ms a 9ms b 9ms (f|)', helloValues);
      const slowModeration: InputGuardrail = {
        name: 'moderation',
        parallel: true,
        check: () => cold('15ms (v|)', { v: { tripped: true, reason: 'no' } }),
      };
      const { events$, state$ } = withState(
        runAgent({ model: streamModel(answer$), prompt: 'hi', inputGuardrails: [slowModeration] }),
      );
      // agent-start, turn-start, the prompt, the check; the answer starts at 10; the trip at 15.
      expectObservable(events$.pipe(toMarbleLetters())).toBe(timeline([0, 'ATSEG'], [10, 'SU'], [15, 'gZ|']));
      expectSubscriptions(answer$.subscriptions).toBe('^ 14ms !');
      scheduler.flush();
      expect(state$.value.streamingMessage).toBeUndefined();
      expect(state$.value.messages.map((m) => m.role)).toEqual(['user']);
      expect(state$.value.stopReason).toBe('guardrail');
    });
  });

  it('an output guardrail retry sends the model its reason; the next answer passes', async () => {
    const model = scriptedModel([textTurn('no'), textTurn('Yes, gladly.')]);
    const polite: OutputGuardrail = {
      name: 'polite',
      check: ({ text }) =>
        text.length < 5 ? { tripped: true, retry: true, reason: 'Be polite.' } : { tripped: false },
    };
    const events = await collectEvents(runAgent({ model, prompt: 'Help?', outputGuardrails: [polite] }));
    const end = agentEnd(events);
    expect(end?.reason).toBe('completed');
    expect(model.calls).toBe(2);
    const retryPrompt = model.requests[1]?.messages.at(-1);
    expect(retryPrompt).toMatchObject({
      role: 'user',
      content: 'Your answer was rejected by the "polite" guardrail: Be polite.\nPlease answer again.',
    });
    expect(assistantText(end?.messages.at(-1))).toBe('Yes, gladly.');
    expect(events.flatMap((e) => (e.type === 'guardrail-end' ? [e.outcome] : []))).toEqual([
      'retry',
      'passed',
    ]);
  });

  it('an output guardrail retry is bounded: after maxRetries the trip ends the run', async () => {
    const model = scriptedModel([textTurn('no'), textTurn('nope')]);
    const polite: OutputGuardrail = {
      name: 'polite',
      maxRetries: 1,
      check: () => ({ tripped: true, retry: true, reason: 'Be polite.' }),
    };
    const events = await collectEvents(runAgent({ model, prompt: 'Help?', outputGuardrails: [polite] }));
    expect(agentEnd(events)?.reason).toBe('guardrail');
    expect(agentEnd(events)?.signal.source).toBe('polite');
    expect(model.calls).toBe(2);
  });

  it('a custom pipeline honours blocking input guardrails and refuses parallel ones', async () => {
    const model = scriptedModel([textTurn('x')]);
    const pipeline = (t$: Parameters<NonNullable<Parameters<typeof runAgent>[0]['pipeline']>>[0]) =>
      t$.pipe(llmStep(), executeTools());
    const events = await collectEvents(
      runAgent({ model, prompt: 'malware', inputGuardrails: [moderation], pipeline }),
    );
    expect(agentEnd(events)?.reason).toBe('guardrail');
    const parallel = { ...moderation, parallel: true };
    await expect(
      lastValueFrom(runAgent({ model, prompt: 'x', inputGuardrails: [parallel], pipeline })),
    ).rejects.toThrow(/races the model call, which a custom pipeline owns/);
  });

  it('refuses malformed guardrail config with AgentConfigError', () => {
    const model = scriptedModel([]);
    const bad = [
      { inputGuardrails: 'moderation' },
      { outputGuardrails: [{ name: 'x' }] },
      { toolGuardrails: [{ name: 'x' }] },
      { inputGuardrails: [moderation, moderation] },
      { outputGuardrails: [{ name: 'x', check: () => undefined, maxRetries: -1 }] },
      { onGuardrailTrip: 'explode' },
    ];
    for (const extra of bad) {
      let error: unknown;
      runAgent({ model, prompt: 'hi', ...(extra as object) }).subscribe({
        error: (e: unknown) => (error = e),
      });
      expect(AgentConfigError.isInstance(error)).toBe(true);
    }
  });

  it('an Agent run resolves with reason guardrail and keeps a valid transcript', async () => {
    const agent = new Agent({ model: scriptedModel([textTurn('Fine.')]), inputGuardrails: [moderation] });
    const result = await agent.prompt('Write malware');
    expect(result.reason).toBe('guardrail');
    expect(agent.messages.map((m) => m.role)).toEqual(['user']);
    const second = await agent.prompt('Say hi');
    expect(second.reason).toBe('completed');
    expect(agent.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });
});
