// The demo's entry point and its only file with side effects: it reads the command line and
// the environment, runs the agent, renders it, and turns the outcome into an exit code.
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Agent } from '@rxagent/core';
import { McpConnectionError, mcpTools, type McpToolset } from '@rxagent/mcp';
import { readOnlyTools } from '@rxagent/tools';
import { chooseModel, type ModelChoice } from './choose-model.js';
import { contextDemoModel, contextOption } from './context-option.js';
import { describeError } from './describe-error.js';
import { jsonLines } from './json-lines.js';
import { DashboardUnavailableError, openDashboard, type DemoDashboard } from './open-dashboard.js';
import { parseDemoArgs, USAGE, UsageError, type DemoArgs } from './parse-args.js';
import { mcpServersFromFlags } from './mcp-servers.js';
import { formatHeader, TerminalRenderer } from './render-terminal.js';
import { otlpTracing } from './otlp-tracing.js';
import { StepTimeline } from './step-timeline.js';
import { subagentDemo } from './subagent-demo.js';
import { fileLog, recordingInstrument } from '@rxagent/replay';
import type { Observable } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import { recordedEvents } from './replay-modes.js';

const EXIT_OK = 0;
const EXIT_FAILED = 1;
const EXIT_USAGE = 2;
const EXIT_INTERRUPTED = 130;

const SYSTEM = [
  'You answer questions about the files in one folder with the tools list, read and grep',
  '(paths are relative to the folder). Look before you answer: list the folder, read its README',
  'and manifest and the files that matter, grep to find things. Then answer the question in a',
  'few short paragraphs of plain text, naming the files your answer rests on.',
].join(' ');

const out = process.stdout;
const err = process.stderr;

/** Ctrl-C: the first calls `onInterrupt` (abort the run, or close the dashboard); the second exits. */
let interrupts = 0;
let onInterrupt: () => void = () => undefined;
const interrupt = () => {
  interrupts++;
  if (interrupts > 1) {
    err.write('\n');
    process.exit(EXIT_INTERRUPTED);
  }
  onInterrupt();
};

async function main(argv: string[]): Promise<number> {
  let args: DemoArgs;
  let choice: ModelChoice;
  try {
    args = parseDemoArgs(argv);
    if (args.help) {
      out.write(USAGE);
      return EXIT_OK;
    }
    choice = chooseModel(args, process.env);
    // Offline, --context-window plays a longer plan, one that outgrows a small window.
    if (choice.offline && args.contextWindow) choice = { ...choice, model: contextDemoModel(process.env) };
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    err.write(`${error.message}\nRun with --help to see the options.\n`);
    return EXIT_USAGE;
  }
  // In --json mode stdout carries the events only: everything else goes to stderr.
  const notices = args.json ? err : out;
  notices.write(`${choice.notice}\n`);

  // `pnpm demo` runs in the repository root; a relative --dir is taken from where it was typed.
  const dir = resolve(process.env.INIT_CWD ?? process.cwd(), args.dir ?? process.cwd());
  if (!(await isFolder(dir))) {
    err.write(`Folder not found: ${dir} (give an existing folder with --dir).\n`);
    return EXIT_FAILED;
  }

  let mcp: McpToolset | undefined;
  try {
    mcp = args.mcp.length > 0 ? await mcpTools(mcpServersFromFlags(args.mcp)) : undefined;
  } catch (error) {
    if (!McpConnectionError.isInstance(error) && !(error instanceof UsageError)) throw error;
    err.write(`${error.message}\n`);
    return error instanceof UsageError ? EXIT_USAGE : EXIT_FAILED;
  }
  if (mcp) notices.write(`MCP tools: ${mcp.tools.map((t) => t.name).join(', ') || '(none)'}\n`);

  const tracing = args.traceOtlpUrl ? otlpTracing(args.traceOtlpUrl) : undefined;
  const setup = args.subagents
    ? subagentDemo({
        dir,
        model: choice.model,
        offline: choice.offline,
        fast: process.env.RXAGENT_DEMO_FAST === '1',
        maxSteps: args.maxSteps,
      })
    : {
        model: choice.model,
        tools: [...readOnlyTools({ root: dir }), ...(mcp?.tools ?? [])],
        system: SYSTEM,
      };
  const contextManager = contextOption(args.contextWindow, choice, process.env);
  if (args.replay) {
    const fast = process.env.RXAGENT_DEMO_FAST === '1';
    const { events$, notice } = recordedEvents(args, {
      ...setup,
      maxSteps: args.maxSteps,
      offline: choice.offline && !args.subagents,
      fast,
      ...(contextManager ? { contextManager } : {}),
    });
    notices.write(`${notice}\n`);
    const code = await show(events$, args, dir);
    await mcp?.close();
    return code;
  }
  const recording = args.record ? recordingInstrument(fileLog(args.record)) : undefined;
  const instrument = recording ?? tracing?.instrument;
  const agent = new Agent({
    ...setup,
    maxSteps: args.maxSteps,
    ...(instrument ? { instrument } : {}),
    contextManager,
  });
  if (args.record) notices.write(`Recording the run to ${args.record}.\n`);
  const timeline = args.timeline ? new StepTimeline(() => Date.now()) : undefined;
  const timelineSubscription = timeline && agent.events$.subscribe((event) => timeline.see(event));
  let aborted = false;
  onInterrupt = () => {
    aborted = true;
    agent.abort();
  };

  const dashboard = args.dashboard ? await startDashboard(agent, args, choice, notices) : undefined;
  if (!args.json) out.write(formatHeader({ dir, question: args.question }));

  const tty = out.isTTY === true;
  const renderer = args.json
    ? undefined
    : new TerminalRenderer({ out, tty, color: tty && !process.env.NO_COLOR });
  const subscription = renderer
    ? agent.events$.subscribe(renderer)
    : agent.events$.pipe(jsonLines()).subscribe((line) => out.write(line));

  let code = EXIT_INTERRUPTED;
  try {
    if (aborted) {
      notices.write('Aborted.\n'); // Ctrl-C while the dashboard was starting: no run at all
    } else {
      const result = await agent.prompt(args.question);
      renderer?.complete();
      if (result.reason !== 'user-requested') code = EXIT_OK;
      else if (args.json) err.write('Aborted.\n'); // the terminal renderer prints it itself
    }
  } catch (error) {
    renderer?.error(error);
    err.write(`${describeError(error, choice.secrets)}\n`);
    code = EXIT_FAILED;
  } finally {
    subscription.unsubscribe();
    await mcp?.close();
    timelineSubscription?.unsubscribe();
  }
  if (timeline) notices.write(timeline.format());
  if (tracing) {
    await tracing.shutdown().catch((error: unknown) => {
      err.write(`--trace: the spans could not be exported (${describeError(error)}).\n`);
    });
    notices.write(`Spans sent over OTLP/HTTP to ${args.traceOtlpUrl ?? ''}\n`);
  }

  if (dashboard) {
    if (code !== EXIT_INTERRUPTED) {
      notices.write(`The dashboard stays open at ${dashboard.url} — Ctrl-C to close it.\n`);
      await new Promise<void>((resolveWait) => (onInterrupt = resolveWait));
    }
    await dashboard.close();
  }
  return code;
}

async function startDashboard(
  agent: Agent,
  args: DemoArgs,
  choice: ModelChoice,
  notices: NodeJS.WritableStream,
): Promise<DemoDashboard | undefined> {
  try {
    const dashboard = await openDashboard({ port: args.port });
    dashboard.addAgent(agent, `${choice.label}: ${args.question}`);
    notices.write(`Dashboard: ${dashboard.url}\n`);
    return dashboard;
  } catch (error) {
    if (!(error instanceof DashboardUnavailableError)) throw error;
    notices.write(`--dashboard: ${error.message} Going on without it.\n`);
    return undefined;
  }
}

/** Renders a replayed or forked run (`--replay`, `--fork-at`) until it ends; Ctrl-C stops it. */
function show(events$: Observable<AgentEvent>, args: DemoArgs, dir: string): Promise<number> {
  if (!args.json) out.write(formatHeader({ dir, question: args.question }));
  const tty = out.isTTY === true;
  const renderer = args.json
    ? undefined
    : new TerminalRenderer({ out, tty, color: tty && !process.env.NO_COLOR });
  return new Promise<number>((resolveCode) => {
    // --json: the wire format, as for a live run.
    const items$: Observable<AgentEvent | string> = renderer ? events$ : events$.pipe(jsonLines());
    const subscription = items$.subscribe({
      next: (item: AgentEvent | string) =>
        typeof item === 'string' ? out.write(item) : renderer?.next(item),
      error: (error: unknown) => {
        renderer?.error(error);
        err.write(`${describeError(error)}\n`);
        resolveCode(EXIT_FAILED);
      },
      complete: () => {
        renderer?.complete();
        resolveCode(EXIT_OK);
      },
    });
    onInterrupt = () => {
      subscription.unsubscribe();
      renderer?.complete();
      err.write('Aborted.\n');
      resolveCode(EXIT_INTERRUPTED);
    };
  });
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}

/** Exits once what was written to stdout is flushed. */
function exit(code: number): void {
  process.exitCode = code;
  out.write('', () => process.exit(code));
}

// A closed pipe (`… --json | head`) is the reader saying it has seen enough.
out.on('error', (error: NodeJS.ErrnoException) =>
  process.exit(error.code === 'EPIPE' ? EXIT_OK : EXIT_FAILED),
);
process.on('SIGINT', interrupt);
process.on('SIGTERM', interrupt);

main(process.argv.slice(2)).then(exit, (error: unknown) => {
  err.write(`${describeError(error)}\n`);
  exit(EXIT_FAILED);
});
