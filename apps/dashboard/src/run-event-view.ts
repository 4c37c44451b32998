import { contentText, toolCalls, type AgentEvent } from '@rxagent/core';
import type { SubrunEvent } from '@rxagent/core/events';
import { clipText } from './text-limits.js';
import { summarizeArgs } from './value-summary.js';

/**
 * One line of a run's event log on the page.
 *
 * @example
 * const line: RunEventView = { runId: 'run-1', type: 'tool-start', text: '▶ read_file {"path":"a.ts"}', at: 0 };
 */
export interface RunEventView {
  runId: string;
  type: AgentEvent['type'];
  text: string;
  /** Epoch ms on the dashboard's scheduler. */
  at: number;
}

/**
 * A one-line description of an event for the page's log, or `undefined` for the events the
 * snapshot already shows better (each streamed delta, tool progress, message echoes).
 *
 * @example
 * describeEvent({ type: 'turn-start', step: 2 }); // 'step 2: calling the model'
 * describeEvent(messageUpdate); // undefined: the streaming text is in the snapshot
 */
export function describeEvent(event: AgentEvent): string | undefined {
  const text = describe(event);
  return text === undefined ? undefined : clipText(text);
}

function describe(event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'agent-start':
      return 'run started';
    case 'turn-start':
      return `step ${event.step}: calling the model`;
    case 'message-start':
      return event.message.role === 'user' ? `prompt: ${short(contentText(event.message), 80)}` : undefined;
    case 'message-end': {
      if (event.message.role !== 'assistant') return undefined;
      const calls = toolCalls(event.message).length;
      return calls > 0
        ? `model asked for ${calls} tool call${calls === 1 ? '' : 's'}`
        : `model answered (${event.message.stopReason})`;
    }
    case 'tool-start':
      return `▶ ${event.toolName} ${summarizeArgs(event.args, 60)}`;
    case 'tool-update':
      return event.kind === 'preview' ? `preview of ${event.toolName}` : undefined;
    case 'tool-end':
      return event.isError
        ? `✗ ${event.toolName}: ${short(resultText(event.result.content), 80)}`
        : `✓ ${event.toolName}`;
    case 'approval-request':
      return `◆ ${event.toolName} waits for approval`;
    case 'approval-end':
      return event.approved
        ? `approved ${event.toolName}`
        : `rejected ${event.toolName}${event.reason ? `: ${short(event.reason, 80)}` : ''}`;
    case 'turn-end':
      // No figure here: what a step spent (sub-runs, summary calls included) is on the card and timeline.
      return `step ${event.step.step} done`;
    case 'retry':
      return `retry #${event.attempt} in ${event.delayMs} ms: ${short(event.error.message, 80)}`;
    case 'compaction':
      return `context compacted: ${event.tokensBefore} → ${event.tokensAfter} tokens`;
    case 'summary-start':
      return `compacting the context: summarizing ${event.messages} messages`;
    case 'warning':
      return `warning: ${short(event.message, 100)}`;
    case 'guardrail-start':
      return `⛨ ${event.guardrail} checks the ${event.kind}`;
    case 'guardrail-end':
      return `⛨ ${event.guardrail}: ${event.outcome}${event.reason ? ` (${short(event.reason, 80)})` : ''}`;
    case 'elicitation-request':
      return `✎ ${event.toolName} asks: ${short(event.message, 80)}`;
    case 'elicitation-end':
      return `✎ ${event.toolName}: ${event.action}${event.reason ? ` (${short(event.reason, 80)})` : ''}`;
    case 'agent-end':
      return `stopped: ${event.reason}`;
    case 'subrun':
      return describeSubrun(event);
    case 'message-update':
    case 'summary-update':
    case 'context-usage':
      return undefined;
  }
}

/** A sub-run's start, tool calls and end (its other events are on its card line and timeline rows). */
function describeSubrun(event: SubrunEvent): string | undefined {
  const who = event.path.map((s) => s.agent).join(' › ');
  const inner = event.event;
  switch (inner.type) {
    case 'agent-start':
      return `↳ ${who} started`;
    case 'tool-start':
      return `↳ ${who} ▶ ${inner.toolName} ${summarizeArgs(inner.args, 60)}`;
    case 'agent-end':
      return `↳ ${who} stopped: ${inner.reason}`;
    default:
      return undefined;
  }
}

function resultText(content: readonly { type: string; text?: string }[]): string {
  return content.map((p) => (p.type === 'text' ? (p.text ?? '') : `[${p.type}]`)).join(' ');
}

function short(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : line.slice(0, max - 1) + '…';
}
