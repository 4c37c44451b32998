import type { AgentEvent, AssistantMessage, ToolResult } from '@rxagent/core';
import { isWorkerProgress } from './worker-progress.js';

/**
 * Prints a watched run as readable lines: steps, the model's words as they stream, tool calls
 * with the worker that runs them, and a line when another worker takes the run over.
 *
 * @example
 * const printer = new RunPrinter((text) => process.stdout.write(text));
 * runs.watchRun(id).subscribe((event) => printer.event(event));
 */
export class RunPrinter {
  private openText = false;
  private worker: string | undefined;
  /** Workers in the order they ran the run. */
  readonly workers: string[] = [];

  constructor(private readonly write: (text: string) => void) {}

  /** A line of the demo's own between the run's lines (ends a streaming line first). */
  note(line: string): void {
    this.line(line);
  }

  event(event: AgentEvent): void {
    switch (event.type) {
      case 'turn-start':
        return this.line(`step ${event.step}`);
      case 'message-update':
        if (event.delta.kind !== 'text') return;
        if (this.openText) return this.write(event.delta.text);
        // A new line shows the whole text so far: after a takeover the stream starts over.
        this.write(`  model │ ${textOf(event.message)}`);
        this.openText = true;
        return;
      case 'tool-start':
        return this.line(`  → ${event.toolName} ${JSON.stringify(event.args)}  [${event.toolCallId}]`);
      case 'tool-update':
        if (event.kind !== 'progress' || !isWorkerProgress(event.progress)) return;
        this.sawWorker(event.progress.worker);
        return this.line(`    ${event.progress.worker} │ ${event.progress.text}`);
      case 'tool-end':
        return this.line(`  ${event.isError ? '✗' : '✓'} ${event.toolName}: ${resultText(event.result)}`);
      case 'retry':
        return this.line(`  ↻ retry ${event.attempt} in ${event.delayMs} ms: ${event.error.message}`);
      case 'warning':
        return this.line(`  ! ${event.message}`);
      case 'agent-end':
        return this.line(
          `agent-end: ${event.reason} after ${event.steps} steps, ${event.usage.totalTokens} tokens`,
        );
      default:
        return;
    }
  }

  private sawWorker(worker: string): void {
    if (worker === this.worker) return;
    if (this.worker !== undefined) {
      this.line(
        `  ↪ ${worker} took the run over: it replayed the recorded steps from PostgreSQL and carries on`,
      );
    }
    this.worker = worker;
    this.workers.push(worker);
  }

  private line(text: string): void {
    if (this.openText) this.write('\n');
    this.openText = false;
    this.write(`${text}\n`);
  }
}

function textOf(message: AssistantMessage): string {
  return message.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
}

function resultText(result: ToolResult): string {
  return result.content.map((p) => (p.type === 'text' ? p.text : `[${p.type}]`)).join(' ');
}
