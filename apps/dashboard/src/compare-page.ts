import type { AgentEvent, AgentMessage } from '@rxagent/core';
import { formatRunDiff, type RunDiff } from '@rxagent/replay';
import { ARGUMENT_LIMIT, clipText } from './text-limits.js';

/**
 * One side of a comparison: the run's card id and label, and its whole transcript.
 *
 * @example
 * const side: CompareSide = { id: 'run-1', label: 'research #1', messages: foldEvents(log.events.map((e) => e.event)).messages };
 */
export interface CompareSide {
  id: string;
  label: string;
  messages: readonly AgentMessage[];
}

/** Every character that means something in HTML, as an entity: all text goes through it. */
function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A message's text, as the transcript shows it (clipped past `ARGUMENT_LIMIT`). */
function messageText(message: AgentMessage): string {
  if (message.role === 'custom') return `custom ${message.customType}`;
  if (typeof message.content === 'string') return clipText(message.content, ARGUMENT_LIMIT);
  const parts = message.content.map((p) => {
    if (p.type === 'text' || p.type === 'thinking') return p.text;
    if (p.type === 'tool-call') return `→ ${p.name} ${JSON.stringify(p.args)}`;
    return `[${p.type}]`;
  });
  return clipText(parts.join('\n'), ARGUMENT_LIMIT);
}

function roleOf(message: AgentMessage): string {
  if (message.role === 'tool')
    return `tool ${message.toolName} ${message.toolCallId}${message.isError ? ' (error)' : ''}`;
  return message.role;
}

function eventText(e: { seq: number; event: AgentEvent } | undefined): string {
  if (!e) return '(the run had ended)';
  const event = e.event;
  const detail =
    event.type === 'message-end'
      ? ` ${roleOf(event.message)}: ${messageText(event.message)}`
      : event.type === 'tool-end'
        ? ` ${event.toolName} ${event.toolCallId} ${event.outcome}`
        : event.type === 'agent-end'
          ? ` ${event.reason}`
          : '';
  return clipText(`#${e.seq} ${event.type}${detail}`);
}

function signed(n: number): string {
  return n > 0 ? `+${n}` : String(n);
}

function summary(diff: RunDiff): string {
  const rows: string[] = [];
  const row = (name: string, className: string, html: string) =>
    rows.push(`<dt>${name}</dt><dd class="${className}">${html}</dd>`);
  if (diff.forkedAt) {
    row(
      'Fork point',
      'fork-point',
      esc(`b is a fork of a at step ${diff.forkedAt.step} (after event ${diff.forkedAt.seq})`),
    );
  }
  const first = diff.firstDivergentEvent;
  row(
    'First divergent event',
    'first-event',
    first
      ? `<span class="side-a">a ${esc(eventText(first.a))}</span><br><span class="side-b">b ${esc(eventText(first.b))}</span>`
      : 'none',
  );
  const request = diff.firstDifferentRequest;
  row(
    'First different request',
    'first-request',
    request
      ? esc(
          `a call ${request.callA}, b call ${request.callB}: ${request.part}` +
            (request.messageIndex === undefined ? '' : ` (message ${request.messageIndex})`),
        )
      : 'none',
  );
  const { a, b, delta } = diff.usage;
  const cost =
    delta.costUsd === undefined
      ? ''
      : `, cost ${delta.costUsd >= 0 ? '+' : '-'}$${Math.abs(delta.costUsd).toFixed(6)}`;
  row(
    'Usage',
    'usage',
    esc(
      `a ${a.inputTokens} in / ${a.outputTokens} out, b ${b.inputTokens} in / ${b.outputTokens} out ` +
        `(${signed(delta.inputTokens)} in, ${signed(delta.outputTokens)} out, ${signed(delta.totalTokens)} total${cost})`,
    ),
  );
  return `<dl class="diff-summary" data-identical="${diff.identical}">${rows.join('')}</dl>`;
}

function side(name: 'a' | 'b', run: CompareSide, diff: RunDiff): string {
  const changes = new Map(diff.transcript.map((d) => [d.index, d.change]));
  const firstChanged = diff.transcript[0]?.index;
  const items = run.messages.map((message, index) => {
    const change = changes.get(index);
    const classes = [
      'msg',
      change ? `diff-${change}` : 'same',
      index === firstChanged ? 'first-divergence' : '',
    ]
      .filter(Boolean)
      .join(' ');
    return (
      `<li class="${classes}" data-index="${index}" data-role="${esc(message.role)}">` +
      `<span class="role">[${index}] ${esc(roleOf(message))}</span><pre>${esc(messageText(message))}</pre></li>`
    );
  });
  return (
    `<section class="side" data-side="${name}" data-run-id="${esc(run.id)}">` +
    `<h2>${name} · ${esc(run.id)} · ${esc(run.label)}</h2><ol class="transcript">${items.join('')}</ol></section>`
  );
}

/**
 * The _Compare_ page (`GET /compare?a=run-1&b=run-2`): the diff's findings (`diffRuns`: the
 * first divergent event, the first different request, usage and its delta), the two
 * transcripts side by side with each message that differs marked (`diff-changed`, `-added`,
 * `-removed`; the first one also `first-divergence`), and the diff as text (`formatRunDiff`).
 * Every text is escaped; no script, its stylesheet served apart (the CSP allows nothing inline).
 *
 * @example
 * res.end(comparePage({ id: 'run-1', label: 'research #1', messages: a }, { id: 'run-2', label: 'fork', messages: b }, diffRuns(logA, logB)));
 */
export function comparePage(a: CompareSide, b: CompareSide, diff: RunDiff): string {
  const title = `Compare ${a.id} and ${b.id}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<link rel="stylesheet" href="/page.css">
<link rel="stylesheet" href="/fork.css">
</head>
<body class="compare-page" data-identical="${diff.identical}">
<header><h1>${esc(title)}</h1><a class="back" href="/">← dashboard</a></header>
<main class="compare">
${summary(diff)}
<div class="sides">${side('a', a, diff)}${side('b', b, diff)}</div>
<details class="diff-text"><summary>As text</summary><pre>${esc(formatRunDiff(diff))}</pre></details>
</main>
</body>
</html>
`;
}
