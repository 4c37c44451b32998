import type { AgentEvent, AgentMessage } from '@rxagent/core';
import { formatDuration } from './summary.js';
import { describeCall } from './tool-lines.js';

/** Width of a tool row's call (its name and a short argument). */
const CALL_WIDTH = 36;

interface ToolLine {
  /** The call in a few words (`read README.md`), cut to `CALL_WIDTH`. */
  call: string;
  start: number;
  end?: number;
  approvalMs?: number;
  approvalAt?: number;
  outcome?: 'ok' | 'error' | 'rejected';
}

interface StepLine {
  step: number;
  start: number;
  end?: number;
  firstTokenMs?: number;
  retries: number;
  tokens: number;
  tools: ToolLine[];
}

/**
 * Collects, from a run's events, where each step spent its time: the model call (time to
 * first token, retries, tokens) and each tool call (a short argument, approval wait, outcome). `format()` is the
 * compact table `--timeline` prints at the end.
 *
 * @example
 * const timeline = new StepTimeline(() => Date.now());
 * agent.events$.subscribe((e) => timeline.see(e));
 * console.log(timeline.format());
 */
export class StepTimeline {
  private start?: number;
  private readonly steps: StepLine[] = [];
  private readonly tools = new Map<string, ToolLine>();

  constructor(private readonly now: () => number) {}

  see(event: AgentEvent): void {
    const t = this.now();
    if (event.type === 'agent-start') this.start = t;
    this.start ??= t;
    const step = this.steps[this.steps.length - 1];
    switch (event.type) {
      case 'turn-start':
        this.steps.push({ step: event.step, start: t, retries: 0, tokens: 0, tools: [] });
        return;
      case 'retry':
        if (step) {
          step.retries++;
          step.firstTokenMs = undefined;
        }
        return;
      case 'message-update':
        if (step && step.firstTokenMs === undefined && step.end === undefined)
          step.firstTokenMs = t - step.start;
        return;
      case 'message-end':
        if (step && isAssistant(event.message) && step.end === undefined) {
          step.end = t;
          step.tokens = event.message.usage.totalTokens;
        }
        return;
      case 'tool-start': {
        const line: ToolLine = { call: shortCall(event.toolName, event.args), start: t };
        this.tools.set(event.toolCallId, line);
        step?.tools.push(line);
        return;
      }
      case 'approval-request': {
        const line = this.tools.get(event.toolCallId);
        if (line) line.approvalAt = t;
        return;
      }
      case 'approval-end': {
        const line = this.tools.get(event.toolCallId);
        if (line?.approvalAt !== undefined) line.approvalMs = t - line.approvalAt;
        if (line && !event.approved) line.outcome = 'rejected';
        return;
      }
      case 'tool-end': {
        const line = this.tools.get(event.toolCallId);
        if (!line) return;
        line.end = t;
        line.outcome ??= event.isError ? 'error' : 'ok';
        return;
      }
      default:
        return;
    }
  }

  /** One line per model call and per tool call, times from the run's start. */
  format(): string {
    const origin = this.start ?? 0;
    const at = (ms: number) => `${((ms - origin) / 1000).toFixed(2)}s`;
    const lines = ['Timeline:'];
    for (const step of this.steps) {
      const head = `  step ${step.step}  model`.padEnd(CALL_WIDTH + 13); // the times under each other
      const parts = [`${head}${at(step.start)} ${span(step.start, step.end)}`];
      if (step.firstTokenMs !== undefined) parts.push(`first token ${formatDuration(step.firstTokenMs)}`);
      parts.push(`${step.tokens.toLocaleString('en-US')} tokens`);
      if (step.retries > 0) parts.push(`${step.retries} ${step.retries === 1 ? 'retry' : 'retries'}`);
      lines.push(parts.join(' · '));
      step.tools.forEach((tool, i) => {
        const branch = i === step.tools.length - 1 ? '└' : '├';
        const toolParts = [
          `          ${branch} ${tool.call.padEnd(CALL_WIDTH)} ${at(tool.start)} ${span(tool.start, tool.end)}`,
        ];
        if (tool.approvalMs !== undefined)
          toolParts.push(`waited ${formatDuration(tool.approvalMs)} for approval`);
        toolParts.push(tool.outcome ?? 'running');
        lines.push(toolParts.join(' · '));
      });
    }
    return lines.join('\n') + '\n';
  }
}

/** `read packages/core/README.md` → at most `CALL_WIDTH` characters, cut with `…`. */
function shortCall(name: string, args: unknown): string {
  const call = describeCall(name, args);
  return call.length <= CALL_WIDTH ? call : `${call.slice(0, CALL_WIDTH - 1)}…`;
}

function span(start: number, end: number | undefined): string {
  return end === undefined ? '(unfinished)' : `+${formatDuration(end - start)}`;
}

function isAssistant(message: AgentMessage): message is Extract<AgentMessage, { role: 'assistant' }> {
  return message.role === 'assistant';
}
