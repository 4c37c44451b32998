import { assistantText, type AgentEvent } from '@rxagent/core';

/**
 * What a sub-run reports to its parent, as the `progress` of the parent's `tool-update`
 * (agentcore's `ProgressPayload`): which agent, at which step, running which tool, a one-line
 * summary and the tokens spent so far. Progress of nested sub-runs is relayed with a longer
 * `path`.
 *
 * @example
 * agent.subscribe((e) => {
 *   if (e.type === 'tool-update' && isSubagentProgress(e.progress)) console.log(e.progress.path.join(' › '), e.progress.summary);
 * });
 */
export interface SubagentProgress {
  type: 'subagent-progress';
  kind: 'start' | 'turn' | 'tool-start' | 'tool-end' | 'message' | 'end' | 'error';
  /** The sub-agent reporting. */
  agent: string;
  /** Agents from the parent's sub-run down to the reporting one. */
  path: string[];
  /** The sub-run's id. */
  runId: string;
  /** Position of the task in a parallel or chain call (0 for single). */
  index: number;
  /** The sub-run's current step (0 before its first model call). */
  step: number;
  /** The tool it runs (tool-start / tool-end). */
  tool?: string;
  isError?: boolean;
  /** One line for a status display. */
  summary: string;
  /** Tokens the sub-run spent so far. */
  tokens: number;
}

/**
 * True for a `SubagentProgress` payload (the `progress` of a `tool-update`).
 *
 * @example
 * if (event.type === 'tool-update' && isSubagentProgress(event.progress)) render(event.progress);
 */
export function isSubagentProgress(value: unknown): value is SubagentProgress {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'subagent-progress' &&
    Array.isArray((value as { path?: unknown }).path)
  );
}

/** One line, at most `max` characters. */
export function oneLine(text: string, max = 120): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function argsLine(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args) ?? '';
  } catch {
    text = '';
  }
  return oneLine(text, 80);
}

/** Where a sub-run is, as its progress is built from its events. */
export interface SubrunPosition {
  agent: string;
  runId: string;
  index: number;
  step: number;
  tokens: number;
}

/**
 * The progress a sub-run event gives its parent, or undefined for events not worth a line
 * (deltas, message starts…).
 */
export function progressOf(event: AgentEvent, at: SubrunPosition): SubagentProgress | undefined {
  const base = { type: 'subagent-progress' as const, agent: at.agent, path: [at.agent], runId: at.runId };
  const where = { index: at.index, step: at.step, tokens: at.tokens };
  switch (event.type) {
    case 'agent-start':
      return { ...base, ...where, kind: 'start', summary: `${at.agent} started` };
    case 'turn-start':
      return { ...base, ...where, kind: 'turn', summary: `${at.agent} · step ${event.step}` };
    case 'tool-start':
      return {
        ...base,
        ...where,
        kind: 'tool-start',
        tool: event.toolName,
        summary: oneLine(`${at.agent} → ${event.toolName} ${argsLine(event.args)}`),
      };
    case 'tool-end':
      return {
        ...base,
        ...where,
        kind: 'tool-end',
        tool: event.toolName,
        isError: event.isError,
        summary: `${at.agent} ← ${event.toolName}${event.isError ? ' failed' : ''}`,
      };
    case 'message-end': {
      if (event.message.role !== 'assistant') return undefined;
      const text = assistantText(event.message);
      return text.trim()
        ? { ...base, ...where, kind: 'message', summary: oneLine(`${at.agent}: ${text}`) }
        : undefined;
    }
    case 'tool-update':
      if (!isSubagentProgress(event.progress)) return undefined;
      return { ...event.progress, path: [at.agent, ...event.progress.path] };
    case 'agent-end':
      return {
        ...base,
        ...where,
        kind: 'end',
        summary: `${at.agent} done (${event.reason}, ${event.steps} steps, ${event.usage.totalTokens} tokens)`,
      };
    default:
      return undefined;
  }
}
