import type { AgentMessage } from '@rxagent/core';
import type { SystemBlock } from '@rxagent/core/provider';

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

/** `value` with every string longer than `cap` cut (and marked). */
function capStrings(value: unknown, cap: number): unknown {
  if (typeof value === 'string') return value.length <= cap ? value : value.slice(0, cap) + TRUNCATED;
  if (Array.isArray(value)) return value.map((v) => capStrings(v, cap));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) out[key] = capStrings(v, cap);
    return out;
  }
  return value;
}

/**
 * Structured content (messages, instructions) as JSON of at most about `max` characters that
 * stays valid JSON of the same shape: long texts are cut first (each marked `…[truncated]`),
 * then the oldest items of a list are left out (the newest are what a trace reader needs).
 *
 * @example
 * boundedJson(conventionMessages(history), 4096);
 */
export function boundedJson(value: unknown, max: number): string {
  const whole = JSON.stringify(value) ?? 'null';
  if (whole.length <= max) return whole;
  const capped = capStrings(value, Math.max(32, Math.floor(max / 8)));
  let text = JSON.stringify(capped) ?? 'null';
  if (text.length <= max || !Array.isArray(capped)) return text;
  const items = [...(capped as unknown[])];
  while (items.length > 1 && text.length > max) {
    items.shift();
    text = JSON.stringify(items);
  }
  return text;
}

/**
 * A system prompt in the conventions' `gen_ai.system_instructions` shape: a list of parts.
 *
 * @example
 * systemInstructions('Be brief.'); // [{ type: 'text', content: 'Be brief.' }]
 */
export function systemInstructions(system: string | readonly SystemBlock[]): unknown[] {
  const blocks = typeof system === 'string' ? [{ text: system }] : system;
  return blocks.map((b) => ({ type: 'text', content: b.text }));
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
