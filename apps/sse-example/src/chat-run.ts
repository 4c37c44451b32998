import { runAgent, tool, type AgentEvent, type AgentMessage, type Approver } from '@rxagent/core';
import {
  assistantMessage,
  finishEvent,
  scriptedModel,
  textTurn,
  toolCallTurn,
  type ScriptedTurn,
} from '@rxagent/testing';
import { filter, map, Subject, take, type Observable } from 'rxjs';
import { z } from 'zod';

const lookUp = tool({
  name: 'look_up',
  description: 'Looks a word up in the glossary',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a value over time`,
});

const deleteNotes = tool({
  name: 'delete_notes',
  description: 'Deletes the notes of a topic (asks a person first)',
  parameters: z.object({ topic: z.string() }),
  needsApproval: true,
  execute: ({ topic }) => `Deleted the notes on ${topic}.`,
});

/** A model call that thinks aloud, then calls `look_up`. */
function thinkThenLookUp(): ScriptedTurn {
  const call = {
    type: 'tool-call' as const,
    id: 'call_look_up',
    name: 'look_up',
    args: { word: 'observable' },
  };
  const message = assistantMessage(
    [{ type: 'thinking', text: 'The user asks about observables.' }, call],
    'tool-calls',
  );
  return {
    events: [
      { type: 'thinking-delta', index: 0, text: 'The user asks about ' },
      { type: 'thinking-delta', index: 0, text: 'observables.' },
      { type: 'toolcall-start', index: 1, id: call.id, name: call.name },
      { type: 'toolcall-end', index: 1, call },
      finishEvent(message),
    ],
  };
}

/**
 * The decisions of a person on a chat's pending tool calls, by tool-call id (the AI SDK's
 * `approvalId`): `approver` waits for `decide(id, …)`.
 *
 * @example
 * const approvals = new ChatApprovals();
 * runAgent({ ...config, approver: approvals.approver });
 * approvals.decide('call_1', true);
 */
export class ChatApprovals {
  private readonly decisions = new Subject<{ id: string; approved: boolean; reason?: string }>();

  /** The approver to give the run. */
  readonly approver: Approver = (request) =>
    this.decisions.pipe(
      filter((d) => d.id === request.toolCallId),
      take(1),
      map((d) => ({ approved: d.approved, ...(d.reason === undefined ? {} : { reason: d.reason }) })),
    );

  /** Records a person's decision. */
  decide(id: string, approved: boolean, reason?: string): void {
    this.decisions.next(reason === undefined ? { id, approved } : { id, approved, reason });
  }
}

function lastUserText(messages: AgentMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role !== 'user') continue;
    return typeof m.content === 'string'
      ? m.content
      : m.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
  }
  return '';
}

/**
 * A chat run with a scripted model (no API key needed): it thinks, looks a word up, asks to
 * delete notes (a tool that needs approval), then answers. The prompt is a text, or a
 * conversation (AG-UI sends the thread's messages). Swap in a real model for yours.
 *
 * @example
 * const approvals = new ChatApprovals();
 * toUIMessageStreamResponse(chatRun('What is an observable?', approvals.approver));
 */
export function chatRun(
  prompt: string | AgentMessage[],
  approver: Approver,
  latencyMs = 5,
): Observable<AgentEvent> {
  const question = typeof prompt === 'string' ? prompt : lastUserText(prompt);
  const model = scriptedModel(
    [
      thinkThenLookUp(),
      toolCallTurn([{ name: 'delete_notes', id: 'call_delete_notes', args: { topic: 'observables' } }], {
        text: 'Tidying up first.',
      }),
      textTurn(`You asked: "${question}". An observable is a value over time.`, { chunks: 8 }),
    ],
    { latency: latencyMs },
  );
  return runAgent({ model, tools: [lookUp, deleteNotes], prompt, approver });
}
