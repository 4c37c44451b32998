import { asyncScheduler, type Observer, type SchedulerLike } from 'rxjs';
import { compactionLine } from './context-lines.js';
import { progressText, subrunText } from './progress-text.js';
import { initialAgentState, reduceAgentState, type AgentEvent, type AgentState } from '@rxagent/core';
import { createSpinner, noSpinner, type Spinner } from './spinner.js';
import { formatSummary, summaryOf } from './summary.js';
import { describeCall, describeResult } from './tool-lines.js';

/**
 * Where the renderer writes (a `process.stdout`, or anything with `write`).
 *
 * @example
 * const sink: TextSink = { write: (text) => chunks.push(text) };
 */
export interface TextSink {
  write(text: string): unknown;
}

/**
 * Options of `TerminalRenderer`.
 *
 * @example
 * const options: TerminalRendererOptions = { out: process.stdout, tty: process.stdout.isTTY === true };
 */
export interface TerminalRendererOptions {
  out: TextSink;
  /** A terminal: a spinner while the model thinks, colours. Default false: plain lines only. */
  tty?: boolean;
  /** ANSI colours (default: `tty`). */
  color?: boolean;
  /** Clock of the spinner and the wall time (default `asyncScheduler`). */
  scheduler?: SchedulerLike;
  /** The spinner to drive (default: a `createSpinner` on a TTY, none otherwise). */
  spinner?: Spinner;
}

type Block = 'none' | 'text' | 'tool';

const ANSI = { dim: '2', green: '32', red: '31', yellow: '33', cyan: '36', bold: '1' } as const;

/**
 * Renders a run's `AgentEvent`s as a terminal transcript: the answer's text as it streams,
 * each tool call on its own lines (`→ read README.md`, then `✓ read README.md (120 lines)` or
 * `✗ …` with the error), retries and warnings, a spinner while the model thinks (TTY only),
 * and at the end `Aborted.` when the run was aborted and the summary (steps, tokens, cost, wall
 * time: the run's state, folded here with `reduceAgentState`, so the figures are every view's). It is an `Observer`: subscribe it to a run, or feed it an `Agent`'s events and call
 * `complete()` / `error()` when the run settles (that erases the spinner).
 *
 * @example
 * const renderer = new TerminalRenderer({ out: process.stdout, tty: process.stdout.isTTY === true });
 * runAgent({ model, tools, prompt }).subscribe(renderer);
 */
export class TerminalRenderer implements Observer<AgentEvent> {
  private readonly out: TextSink;
  private readonly tty: boolean;
  private readonly color: boolean;
  private readonly scheduler: SchedulerLike;
  private readonly spinner: Spinner;
  private startedAt: number;
  private lineOpen = false;
  private block: Block = 'none';
  /** Tool calls running now, by id, with their tool's name (for the spinner's label). */
  private readonly running = new Map<string, string>();
  /** The run's state (the one fold): every figure printed comes from it. */
  private state: AgentState = initialAgentState();

  constructor(options: TerminalRendererOptions) {
    this.out = options.out;
    this.tty = options.tty ?? false;
    this.color = options.color ?? this.tty;
    this.scheduler = options.scheduler ?? asyncScheduler;
    this.spinner =
      options.spinner ??
      (this.tty
        ? createSpinner({ write: (s) => this.out.write(s), scheduler: this.scheduler })
        : noSpinner());
    this.startedAt = this.scheduler.now();
  }

  next(event: AgentEvent): void {
    if (event.type === 'agent-start') this.state = initialAgentState();
    this.state = reduceAgentState(this.state, event);
    switch (event.type) {
      case 'agent-start':
        this.startedAt = this.scheduler.now();
        return;
      case 'turn-start':
        return this.spin('thinking');
      case 'message-update': {
        if (event.delta.kind === 'text') return this.text(event.delta.text);
        if (event.delta.kind === 'toolcall') {
          const part = event.message.content[event.delta.index];
          return this.spin(part?.type === 'tool-call' ? `calling ${part.name}` : 'thinking');
        }
        return;
      }
      case 'message-end':
        if (event.message.role === 'assistant') this.endLine();
        return;
      case 'tool-start':
        this.running.set(event.toolCallId, event.toolName);
        this.line('tool', `${this.paint('cyan', '→')} ${describeCall(event.toolName, event.args)}`);
        return this.spinForTools();
      case 'tool-update': {
        const shown = progressText(event.kind === 'preview' ? event.preview : event.progress);
        if (shown !== undefined) this.line('tool', this.paint('dim', `  … ${oneLine(shown)}`));
        return this.spinForTools();
      }
      case 'subrun': {
        const shown = subrunText(event, this.state.subruns[event.path.at(-1)?.runId ?? '']);
        if (shown !== undefined) this.line('tool', this.paint('dim', `  … ${oneLine(shown)}`));
        return this.spinForTools();
      }
      case 'tool-end': {
        this.running.delete(event.toolCallId);
        const call = describeCall(event.toolName, event.args);
        const what = describeResult(event.toolName, event.result);
        this.line(
          'tool',
          event.isError
            ? `${this.paint('red', '✗')} ${call} ${this.paint('red', `— ${what}`)}`
            : `${this.paint('green', '✓')} ${call} ${this.paint('dim', `(${what})`)}`,
        );
        return this.spinForTools();
      }
      case 'approval-request':
        return this.line('tool', `? ${describeCall(event.toolName, event.args)} waits for approval`);
      case 'retry': {
        // Calls the failed attempt started early (eager tools) were aborted with it.
        for (const [id, name] of this.running) {
          if (this.state.pendingToolCalls.includes(id)) continue;
          this.running.delete(id);
          this.line(
            'tool',
            this.paint('dim', `  … ${name} dropped: the model call that asked for it is retried`),
          );
        }
        const seconds = (event.delayMs / 1000).toFixed(1);
        const why = `${event.error.name}: ${oneLine(event.error.message)}`;
        this.line('tool', this.paint('yellow', `↻ retry ${event.attempt} in ${seconds} s — ${why}`));
        return this.spin('waiting to retry');
      }
      case 'warning':
        return this.line('tool', this.paint('yellow', `! ${oneLine(event.message)}`));
      case 'compaction':
        return this.line('tool', this.paint('dim', compactionLine(event)));
      case 'summary-start':
        return this.spin('compacting the context');
      case 'agent-end': {
        this.stopSpinner();
        this.endLine();
        if (this.block !== 'none') this.out.write('\n');
        if (event.reason === 'user-requested') this.out.write(`${this.paint('yellow', 'Aborted.')}\n`);
        const summary = formatSummary(summaryOf(this.state, this.scheduler.now() - this.startedAt));
        this.out.write(`${this.paint('dim', summary)}\n`);
        this.block = 'none';
        return;
      }
      default:
        return;
    }
  }

  /** The run failed: erase the spinner and end the line (the caller prints the error). */
  error(_error: unknown): void {
    this.complete();
  }

  /** The run is over: erase the spinner and end the line. */
  complete(): void {
    this.stopSpinner();
    this.endLine();
  }

  private text(text: string): void {
    if (text === '') return;
    this.stopSpinner();
    if (this.block === 'tool') this.out.write('\n');
    this.block = 'text';
    this.out.write(text);
    this.lineOpen = !text.endsWith('\n');
  }

  private line(block: Block, text: string): void {
    this.stopSpinner();
    this.endLine();
    this.block = block;
    this.out.write(`${text}\n`);
  }

  private spin(label: string): void {
    if (!this.tty) return;
    this.endLine();
    this.spinner.start(label);
  }

  private spinForTools(): void {
    const [name] = this.running.values();
    if (name !== undefined) this.spin(`running ${name}`);
  }

  private stopSpinner(): void {
    if (this.spinner.spinning) this.spinner.stop();
  }

  private endLine(): void {
    if (!this.lineOpen) return;
    this.stopSpinner();
    this.out.write('\n');
    this.lineOpen = false;
  }

  private paint(style: keyof typeof ANSI, text: string): string {
    return this.color ? `\x1b[${ANSI[style]}m${text}\x1b[0m` : text;
  }
}

/**
 * The lines printed before a run: the folder and the question.
 *
 * @example
 * process.stdout.write(formatHeader({ dir: '/work/project', question: 'What is this?' }));
 */
export function formatHeader(header: { dir: string; question: string; model?: string }): string {
  const lines = [`Folder: ${header.dir}`];
  if (header.model) lines.push(`Model: ${header.model}`);
  lines.push(`Question: ${header.question}`, '');
  return `${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 160 ? `${line.slice(0, 159)}…` : line;
}
