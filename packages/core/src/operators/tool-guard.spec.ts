import { z } from 'zod';
import { collectEvents, scriptedModel, settleRun, textTurn, toolCallTurn } from '@rxagent/testing';
import { GuardrailTrippedError } from '../guardrails/guardrail-tripped-error.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';
import type { GuardrailEndEvent } from '../events/guardrail-events.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import { runAgent } from '../loop/run-agent.js';
import { contentText } from '../messages/message-helpers.js';
import type { AgentMessage, ToolResultMessage } from '../messages/types.js';
import { tool } from '../tools/tool.js';
import { executeTools } from './execute-tools.js';
import { llmStep } from './llm-step.js';
import { toolGuard } from './tool-guard.js';

const EMAIL = /[\w.]+@[\w.]+/g;

function lookupTool(received: unknown[] = []) {
  return tool({
    name: 'lookup',
    description: 'Finds a customer',
    parameters: z.object({ name: z.string() }),
    execute: ({ name }) => {
      received.push(name);
      return `${name}: jane.doe@example.com, account 42`;
    },
  });
}

const redactPii: ToolGuardrail = {
  name: 'redact-pii',
  after: (_call, result) => ({
    action: 'replace',
    result: {
      ...result,
      content: result.content.map((p) =>
        p.type === 'text' ? { ...p, text: p.text.replace(EMAIL, '[email]') } : p,
      ),
    },
    reason: 'emails redacted',
  }),
};

const model = () =>
  scriptedModel([toolCallTurn({ name: 'lookup', args: { name: 'Jane' }, id: 'c1' }), textTurn('Done.')]);
const toolResults = (messages: readonly AgentMessage[]) =>
  messages.filter((m): m is ToolResultMessage => m.role === 'tool').map((m) => contentText(m));
const ends = (events: AgentEvent[]) =>
  events.filter((e): e is GuardrailEndEvent => e.type === 'guardrail-end');
const agentEnd = (events: AgentEvent[]) => events.find((e): e is AgentEndEvent => e.type === 'agent-end');

describe('tool guardrails', () => {
  it('redact a result before it enters the transcript and the events', async () => {
    const events = await collectEvents(
      runAgent({ model: model(), tools: [lookupTool()], prompt: 'Find Jane', toolGuardrails: [redactPii] }),
    );
    const end = agentEnd(events);
    expect(toolResults(end?.messages ?? [])).toEqual(['Jane: [email], account 42']);
    const toolEnd = events.find((e) => e.type === 'tool-end');
    expect(toolEnd?.type === 'tool-end' && toolEnd.result.content).toEqual([
      { type: 'text', text: 'Jane: [email], account 42' },
    ]);
    expect(ends(events)).toEqual([
      {
        type: 'guardrail-end',
        guardrail: 'redact-pii',
        kind: 'tool-output',
        toolCallId: 'c1',
        outcome: 'replaced',
        reason: 'emails redacted',
      },
    ]);
    // The address never reaches any event.
    expect(JSON.stringify(events)).not.toContain('jane.doe@example.com');
    expect(end?.reason).toBe('completed');
  });

  it('deny a call with a reason the model reads; the tool never runs and the run goes on', async () => {
    const received: unknown[] = [];
    const deny: ToolGuardrail = {
      name: 'no-lookups',
      tools: ['lookup'],
      before: () => ({ action: 'deny', reason: 'Lookups are disabled today.' }),
    };
    const m = model();
    const events = await collectEvents(
      runAgent({ model: m, tools: [lookupTool(received)], prompt: 'Find Jane', toolGuardrails: [deny] }),
    );
    expect(received).toEqual([]);
    expect(toolResults(agentEnd(events)?.messages ?? [])).toEqual(['Lookups are disabled today.']);
    expect(ends(events).map((e) => e.outcome)).toEqual(['denied']);
    expect(m.requests[1]?.messages.some((msg) => msg.role === 'tool' && msg.isError)).toBe(true);
    expect(agentEnd(events)?.reason).toBe('completed');
  });

  it('rewrite the arguments the tool gets; the event carries the new arguments', async () => {
    const received: unknown[] = [];
    const rewrite: ToolGuardrail = {
      name: 'initials-only',
      before: (call) => ({
        action: 'rewrite',
        args: { name: String((call.args as { name: string }).name)[0] },
      }),
    };
    const events = await collectEvents(
      runAgent({
        model: model(),
        tools: [lookupTool(received)],
        prompt: 'Find Jane',
        toolGuardrails: [rewrite],
      }),
    );
    expect(received).toEqual(['J']);
    expect(ends(events)[0]).toMatchObject({ outcome: 'rewritten', args: { name: 'J' } });
  });

  it('a trip ends the run with reason guardrail, the call not run and its result withheld', async () => {
    const received: unknown[] = [];
    const trip: ToolGuardrail = {
      name: 'tripwire',
      before: () => ({ action: 'trip', reason: 'No customer data.' }),
    };
    const events = await collectEvents(
      runAgent({
        model: model(),
        tools: [lookupTool(received)],
        prompt: 'Find Jane',
        toolGuardrails: [trip],
      }),
    );
    const end = agentEnd(events);
    expect(received).toEqual([]);
    expect(end?.reason).toBe('guardrail');
    expect(end?.signal.source).toBe('tripwire');
    expect(end?.signal.context).toMatchObject({
      kind: 'tool-input',
      toolCallId: 'c1',
      reason: 'No customer data.',
    });
    expect(toolResults(end?.messages ?? [])).toEqual([
      'Tool call blocked: guardrail "tripwire" tripped: No customer data.',
    ]);
    expect(end?.steps).toBe(1);
  });

  it('a trip after the call withholds the result', async () => {
    const trip: ToolGuardrail = {
      name: 'leak-check',
      after: () => ({ action: 'trip', reason: 'Leaked data.' }),
    };
    const events = await collectEvents(
      runAgent({ model: model(), tools: [lookupTool()], prompt: 'Find Jane', toolGuardrails: [trip] }),
    );
    expect(agentEnd(events)?.reason).toBe('guardrail');
    expect(JSON.stringify(events)).not.toContain('jane.doe@example.com');
  });

  it("fails the run with GuardrailTrippedError when onGuardrailTrip is 'error'", async () => {
    const trip: ToolGuardrail = {
      name: 'tripwire',
      before: () => Promise.resolve({ action: 'trip', reason: 'No.' }),
    };
    const { error } = await settleRun(
      runAgent({
        model: model(),
        tools: [lookupTool()],
        prompt: 'Find Jane',
        toolGuardrails: [trip],
        onGuardrailTrip: 'error',
      }),
    );
    expect(GuardrailTrippedError.isInstance(error)).toBe(true);
    expect((error as GuardrailTrippedError).guardrail).toBe('tripwire');
  });

  it('fail closed: a before that throws denies, an after that throws withholds the result', async () => {
    const broken: ToolGuardrail = {
      name: 'broken',
      after: () => {
        throw new Error('scanner down');
      },
    };
    const events = await collectEvents(
      runAgent({ model: model(), tools: [lookupTool()], prompt: 'Find Jane', toolGuardrails: [broken] }),
    );
    expect(toolResults(agentEnd(events)?.messages ?? [])).toEqual([
      'The guardrail failed, so the result was withheld: scanner down',
    ]);
  });

  it('toolGuard() adds guardrails to the executeTools() after it in a custom pipeline', async () => {
    const events = await collectEvents(
      runAgent({
        model: model(),
        tools: [lookupTool()],
        prompt: 'Find Jane',
        pipeline: (t$) => t$.pipe(llmStep(), toolGuard([redactPii]), executeTools()),
      }),
    );
    expect(toolResults(agentEnd(events)?.messages ?? [])).toEqual(['Jane: [email], account 42']);
  });

  it('toolGuard() after executeTools() fails the run loudly', async () => {
    const { error } = await settleRun(
      runAgent({
        model: model(),
        tools: [lookupTool()],
        prompt: 'Find Jane',
        pipeline: (t$) => t$.pipe(llmStep(), executeTools(), toolGuard([redactPii])),
      }),
    );
    expect(PipelineError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/put toolGuard\(\) before executeTools\(\)/);
  });

  it('skips guardrails whose tools do not include the call', async () => {
    const other: ToolGuardrail = { ...redactPii, name: 'other', tools: ['bash'] };
    const events = await collectEvents(
      runAgent({ model: model(), tools: [lookupTool()], prompt: 'Find Jane', toolGuardrails: [other] }),
    );
    expect(ends(events)).toEqual([]);
    expect(toolResults(agentEnd(events)?.messages ?? [])).toEqual(['Jane: jane.doe@example.com, account 42']);
  });
});
