import type { ChatRequest } from './chat-model.js';

/**
 * The free-form tools (string parameters) of a request. Providers without free-form tools
 * (Chat Completions, Anthropic) declare them as functions taking `{ input: string }` and
 * unwrap the calls' arguments back to the text.
 *
 * @example
 * textToolNames({ messages: [], tools: [{ name: 'note', description: '', parameters: { type: 'string' } }] }); // Set { 'note' }
 */
export function textToolNames(request: Pick<ChatRequest, 'tools'>): ReadonlySet<string> {
  return new Set((request.tools ?? []).filter((t) => t.parameters.type === 'string').map((t) => t.name));
}
