import { Allow, parse } from 'partial-json';
import { withoutProtoKeys } from '../util/without-proto-keys.js';
import type { MessageUpdateEvent, OutputUpdateEvent } from '../events/agent-event.js';
import type { AssistantMessage } from '../messages/types.js';

function streamedText(message: AssistantMessage): string {
  let text = '';
  for (const part of message.content) if (part.type === 'text') text += part.text;
  return text;
}

/** The JSON so far without an opening code fence (some models add one). */
function withoutFence(text: string): string {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('```')) return trimmed;
  const newline = trimmed.indexOf('\n');
  if (newline < 0) return '';
  const body = trimmed.slice(newline + 1);
  const close = body.lastIndexOf('```');
  return close >= 0 ? body.slice(0, close) : body;
}

/**
 * Follows the streamed final answer of one model call and gives the partial object each time
 * it changes, parsed by `partial-json` (a tolerant parser: unfinished strings, numbers,
 * arrays and objects come out as far as they got). Native mode reads the message's text;
 * tool mode the arguments of the `final_answer` call.
 *
 * @example
 * const follow = partialOutputFollower({ mode: 'native', wrapped: false, toolName: 'final_answer' });
 * const update = follow(messageUpdateEvent); // an OutputUpdateEvent or undefined
 */
export function partialOutputFollower(spec: {
  mode: 'native' | 'tool';
  wrapped: boolean;
  toolName: string;
}): (event: MessageUpdateEvent) => OutputUpdateEvent | undefined {
  let last: string | undefined;
  return (event) => {
    let json: string | undefined;
    if (spec.mode === 'native' && event.delta.kind === 'text') {
      json = withoutFence(streamedText(event.message));
    } else if (spec.mode === 'tool' && event.delta.kind === 'toolcall') {
      const part = event.message.content[event.delta.index];
      if (part?.type === 'tool-call' && part.name === spec.toolName) json = part.argsText ?? '';
    }
    if (json === undefined || json.trim() === '') return undefined;
    let value: unknown;
    try {
      value = parse(json, Allow.ALL);
    } catch {
      // Not JSON (yet, or at all): the final check reports it.
      return undefined;
    }
    if (spec.wrapped) {
      if (typeof value !== 'object' || value === null || !('answer' in value)) return undefined;
      value = value.answer;
    }
    const key = JSON.stringify(value);
    if (key === undefined || key === last) return undefined;
    last = key;
    // Parsed again: `partial-json` turns a `__proto__` key into a prototype; JSON.parse keeps
    // it an own key, which goes too.
    return { type: 'output-update', output: withoutProtoKeys(JSON.parse(key) as unknown) };
  };
}
