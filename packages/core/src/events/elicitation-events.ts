import type { ElicitationSchema } from '../elicitation/elicitation-types.js';

/**
 * A tool asks a person for information (an MCP server's `elicitation/create`) and waits, like
 * an approval: answer with `Agent.respond(elicitationId, values)` or the run's `elicit`.
 *
 * @example
 * const e: ElicitationRequestEvent = {
 *   type: 'elicitation-request', elicitationId: 'call_1/elicitation-1', toolCallId: 'call_1',
 *   toolName: 'book_table', source: 'restaurants', message: 'How many guests?',
 *   requestedSchema: { type: 'object', properties: { guests: { type: 'integer' } }, required: ['guests'] },
 * };
 */
export interface ElicitationRequestEvent {
  type: 'elicitation-request';
  elicitationId: string;
  toolCallId: string;
  toolName: string;
  source?: string;
  message: string;
  requestedSchema: ElicitationSchema;
}

/**
 * An elicitation was answered: `accept`, `decline` or `cancel` (the values go only to the tool
 * that asked, never into events). `reason` says why rxagent declined on the person's behalf.
 *
 * @example
 * const e: ElicitationEndEvent = {
 *   type: 'elicitation-end', elicitationId: 'call_1/elicitation-1', toolCallId: 'call_1',
 *   toolName: 'book_table', action: 'decline', reason: 'No answer.',
 * };
 */
export interface ElicitationEndEvent {
  type: 'elicitation-end';
  elicitationId: string;
  toolCallId: string;
  toolName: string;
  action: 'accept' | 'decline' | 'cancel';
  reason?: string;
}

/**
 * The two elicitation events, as members of `AgentEvent`.
 *
 * @example
 * const waiting = (e: ElicitationEvent) => e.type === 'elicitation-request';
 */
export type ElicitationEvent = ElicitationRequestEvent | ElicitationEndEvent;
