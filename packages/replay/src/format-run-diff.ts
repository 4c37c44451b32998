import type { AgentEvent, AgentMessage } from '@rxagent/core';
import type { RunDiff } from './diff-runs.js';

const MAX = 160;

function clip(text: string): string {
  return text.length > MAX ? `${text.slice(0, MAX - 1)}…` : text;
}

/** A message in one line: its role and its text (or its calls, or its result). */
function line(message: AgentMessage | undefined): string {
  if (!message) return '(none)';
  if (message.role === 'custom') return `custom ${message.customType}`;
  if (message.role === 'tool') {
    const text = message.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join('');
    return `tool ${message.toolName} ${message.toolCallId}${message.isError ? ' (error)' : ''}: ${clip(text)}`;
  }
  if (typeof message.content === 'string') return `${message.role}: ${clip(message.content)}`;
  const parts = message.content.map((p) => {
    if (p.type === 'text') return p.text;
    if (p.type === 'tool-call') return `[call ${p.name} ${p.id} ${JSON.stringify(p.args)}]`;
    return `[${p.type}]`;
  });
  return `${message.role}: ${clip(parts.join(' '))}`;
}

function event(e: { seq: number; event: AgentEvent } | undefined): string {
  if (!e) return '(the run had ended)';
  const { type } = e.event;
  const detail =
    e.event.type === 'message-end'
      ? ` ${line(e.event.message)}`
      : e.event.type === 'tool-end'
        ? ` ${e.event.toolName} ${e.event.toolCallId} ${e.event.outcome}`
        : e.event.type === 'agent-end'
          ? ` ${e.event.reason}`
          : '';
  return `#${e.seq} ${type}${clip(detail)}`;
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

/**
 * A run diff as readable text: one section per finding.
 *
 * @example
 * console.log(formatRunDiff(diffRuns(original, fork)));
 */
export function formatRunDiff(diff: RunDiff): string {
  const out: string[] = [`runs ${diff.a.runId} (a) and ${diff.b.runId} (b)`];
  if (diff.forkedAt)
    out.push(`b is a fork of a at step ${diff.forkedAt.step} (after event ${diff.forkedAt.seq})`);
  if (diff.identical) out.push('identical: same events, transcript and requests');
  const first = diff.firstDivergentEvent;
  if (first)
    out.push(
      `first divergent event (#${first.index} compared):`,
      `  a ${event(first.a)}`,
      `  b ${event(first.b)}`,
    );
  if (diff.transcript.length > 0) {
    out.push('transcript:');
    for (const m of diff.transcript) {
      if (m.a) out.push(`  - [${m.index}] ${line(m.a)}`);
      if (m.b) out.push(`  + [${m.index}] ${line(m.b)}`);
    }
  }
  const request = diff.firstDifferentRequest;
  if (request) {
    const what = request.part === 'messages' ? `message ${request.messageIndex}` : request.part;
    out.push(`first different request: a call ${request.callA}, b call ${request.callB}: ${what}`);
  }
  const { a, b, delta } = diff.usage;
  out.push(
    `usage: a ${a.inputTokens} in / ${a.outputTokens} out, b ${b.inputTokens} in / ${b.outputTokens} out ` +
      `(${signed(delta.inputTokens)} in, ${signed(delta.outputTokens)} out, ${signed(delta.totalTokens)} total` +
      `${delta.costUsd !== undefined ? `, ${delta.costUsd >= 0 ? '+' : '-'}$${Math.abs(delta.costUsd).toFixed(6)}` : ''})`,
  );
  return out.join('\n');
}
