import type { AgentMessage } from '@rxagent/core';

const TRUNCATED = '…[truncated]';

/** `value` as JSON (strings as they are), cut to `max` characters. */
export function boundedText(value: unknown, max: number): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    text = String(value);
  }
  return text.length <= max ? text : text.slice(0, Math.max(0, max)) + TRUNCATED;
}

/** Messages in the GenAI conventions' shape: `{ role, parts: [{ type, content }] }`. */
export function conventionMessages(messages: readonly AgentMessage[]): unknown[] {
  return messages.map((m) => {
    if (m.role === 'custom') return { role: 'custom', parts: [] };
    if (m.role === 'system') return { role: 'system', parts: [{ type: 'text', content: m.content }] };
    if (m.role === 'user') {
      const parts =
        typeof m.content === 'string'
          ? [{ type: 'text', content: m.content }]
          : m.content.map((p) => (p.type === 'text' ? { type: 'text', content: p.text } : { type: 'image' }));
      return { role: 'user', parts };
    }
    if (m.role === 'tool') {
      const text = m.content.map((p) => (p.type === 'text' ? p.text : '[image]')).join('');
      return { role: 'tool', parts: [{ type: 'tool_call_response', id: m.toolCallId, response: text }] };
    }
    const parts = m.content.map((p) => {
      if (p.type === 'text') return { type: 'text', content: p.text };
      if (p.type === 'thinking') return { type: 'reasoning', content: p.text };
      if (p.type === 'tool-call') return { type: 'tool_call', id: p.id, name: p.name, arguments: p.args };
      return { type: p.type };
    });
    return { role: 'assistant', parts, finish_reason: finishReason(m.stopReason) };
  });
}

/** rxagent's finish reasons as the conventions spell them. */
export function finishReason(reason: string): string {
  if (reason === 'tool-calls') return 'tool_call';
  if (reason === 'content-filter') return 'content_filter';
  return reason;
}
