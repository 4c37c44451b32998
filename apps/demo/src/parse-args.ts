import { parseArgs } from 'node:util';

/**
 * The question asked when none is given on the command line.
 *
 * @example
 * parseDemoArgs([]).question === DEFAULT_QUESTION; // true
 */
export const DEFAULT_QUESTION = 'What is this project and how is it organised?';

/** Model calls per run unless `--max-steps` says otherwise. */
const DEFAULT_MAX_STEPS = 12;

/**
 * Where the answer comes from: a real provider, or the built-in scripted model.
 *
 * @example
 * const provider: ProviderName = 'anthropic';
 */
export type ProviderName = 'openai' | 'anthropic' | 'scripted';

const PROVIDERS: readonly ProviderName[] = ['openai', 'anthropic', 'scripted'];

/**
 * The demo's command line, parsed.
 *
 * @example
 * const args: DemoArgs = parseDemoArgs(['--json', 'What does it do?']);
 */
export interface DemoArgs {
  question: string;
  /** The folder to ask about, as typed (resolved by the caller). */
  dir?: string;
  provider?: ProviderName;
  model?: string;
  /** An OpenAI-compatible (or Anthropic) API root, e.g. `http://127.0.0.1:11434/v1`. */
  baseUrl?: string;
  json: boolean;
  dashboard: boolean;
  /** Dashboard port (0: a free one). */
  port: number;
  maxSteps: number;
  /** MCP servers to start (`--mcp "<command> <args…>"`, repeatable): their tools join the demo's. */
  mcp: string[];
  /** Print a per-step summary at the end. */
  timeline: boolean;
  /** Export spans over OTLP/HTTP to this URL (`--trace otlp=<url>`). */
  traceOtlpUrl?: string;
  /** With a context engine of this window (tokens): long runs are compacted. */
  contextWindow?: number;
  /** Answer through a scout sub-agent (the `subagent` tool) instead of reading files directly. */
  subagents: boolean;
  /** Record the run (or the fork) to this run log (`@rxagent/replay`). */
  record?: string;
  /** Replay this run log instead of running (or, with `forkAt`, fork it). */
  replay?: string;
  /** Fork the `replay` log at this step, live. */
  forkAt?: number;
  /** The fork's edit: this tool call's result replaced by this text. */
  editResult?: { toolCallId: string; text: string };
  help: boolean;
}

/**
 * A command line the demo cannot run: the message says what to type instead.
 *
 * @example
 * try { parseDemoArgs(['--provider', 'x']); } catch (e) { if (e instanceof UsageError) console.error(e.message); }
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * What `--help` prints.
 *
 * @example
 * process.stdout.write(USAGE);
 */
export const USAGE = `Usage: pnpm demo -- [question] [options]
       node apps/demo/dist/main.js [question] [options]

Answers a question about a folder with the read-only tools (list, read, grep), streaming the
answer to the terminal. Without an API key it runs offline on the built-in scripted model.

Options:
  --dir <path>          the folder to ask about (default: the current folder, this repository
                        under \`pnpm demo\`)
  --provider <name>     openai | anthropic | scripted (default: from the keys, else scripted)
  --model <id>          the model (default gpt-4o-mini / claude-sonnet-4-5; env RXAGENT_MODEL)
  --base-url <url>      an OpenAI-compatible server (Ollama, vLLM, LM Studio…), e.g.
                        http://127.0.0.1:11434/v1; no key needed
  --max-steps <n>       model calls at most (default ${DEFAULT_MAX_STEPS})
  --mcp "<cmd> <args…>"  start an MCP server over stdio and offer its tools too (repeatable),
                        e.g. --mcp "npx -y @modelcontextprotocol/server-everything"
  --context-window <n>  manage the context with @rxagent/context as if the model's window
                        were <n> tokens (e.g. 8000: watch it compact)
  --subagents           answer through a scout sub-agent that reads the folder (its progress
                        is shown nested under the subagent call)
  --record <file>       record the run to a run log (JSON lines: events, model requests and
                        answers, snapshots), for --replay and --fork-at
  --replay <file>       replay a recorded run: the same events, no model call, no tool run
  --fork-at <step>      with --replay: continue the recorded run live from the end of <step>
  --edit-result <id>=<text>  with --fork-at: the fork's one edit, tool call <id>'s result
                        replaced by <text>
  --json                print the run's events as JSON lines on stdout
  --timeline            print where each step spent its time at the end
  --trace otlp=<url>    export OpenTelemetry spans over OTLP/HTTP, e.g.
                        otlp=http://127.0.0.1:4318/v1/traces
  --dashboard           also show the run in the live dashboard; it stays up until Ctrl-C
  --port <n>            the dashboard's port (default: a free one)
  -h, --help            this text

Environment: OPENAI_API_KEY, ANTHROPIC_API_KEY, RXAGENT_PROVIDER, RXAGENT_MODEL,
RXAGENT_DEMO_FAST=1 (offline mode without the simulated latency).

Ctrl-C aborts the run (exit code 130); a second Ctrl-C exits at once.
`;

/**
 * Parses the demo's arguments (`node:util` parseArgs). Positional words are joined into the
 * question; a leading `--` (which `pnpm demo -- …` passes on) is ignored.
 *
 * @param argv The arguments after the script name.
 * @return The parsed arguments, with defaults.
 * @throws UsageError for an unknown option or a bad value.
 *
 * @example
 * parseDemoArgs(['--', 'What is in src?', '--dir', '../other', '--json']);
 * // { question: 'What is in src?', dir: '../other', json: true, … }
 */
export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const args = argv[0] === '--' ? argv.slice(1) : [...argv];
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(args);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const question = positionals.join(' ').trim() || DEFAULT_QUESTION;
  return {
    question,
    dir: values.dir,
    provider: values.provider === undefined ? undefined : providerName(values.provider),
    model: nonEmpty(values.model, '--model'),
    baseUrl: values['base-url'] === undefined ? undefined : url(values['base-url']),
    json: values.json,
    dashboard: values.dashboard,
    port: integer(values.port, '--port', 0, 65535),
    maxSteps: integer(values['max-steps'], '--max-steps', 1, 1000),
    mcp: (values.mcp ?? []).map((command) => nonEmpty(command, '--mcp') as string),
    timeline: values.timeline,
    ...(values.trace === undefined ? {} : { traceOtlpUrl: traceTarget(values.trace) }),
    contextWindow:
      values['context-window'] === undefined
        ? undefined
        : integer(values['context-window'], '--context-window', 2_000, 10_000_000),
    subagents: values.subagents,
    ...replayFlags(values),
    help: values.help,
  };
}

function replayFlags(values: ReturnType<typeof parse>['values']): Partial<DemoArgs> {
  const flags: Partial<DemoArgs> = {};
  const record = nonEmpty(values.record, '--record');
  const replay = nonEmpty(values.replay, '--replay');
  if (record) flags.record = record;
  if (replay) flags.replay = replay;
  if (values['fork-at'] !== undefined) {
    if (!replay) throw new UsageError('--fork-at forks a recorded run: give its log with --replay <file>.');
    flags.forkAt = integer(values['fork-at'], '--fork-at', 1, 100_000);
  }
  if (values['edit-result'] !== undefined) {
    if (flags.forkAt === undefined)
      throw new UsageError('--edit-result is the edit of a fork: give --fork-at <step> too.');
    const match = /^([^=]+)=(.*)$/s.exec(values['edit-result']);
    if (!match)
      throw new UsageError(`--edit-result takes <toolCallId>=<text>; got "${values['edit-result']}".`);
    flags.editResult = { toolCallId: (match[1] as string).trim(), text: match[2] as string };
  }
  if (record && values.trace !== undefined) {
    throw new UsageError('--record and --trace both instrument the run: use one at a time.');
  }
  if (replay && record && flags.forkAt === undefined) {
    throw new UsageError(
      '--replay plays a recorded run: there is nothing new to --record (fork it with --fork-at).',
    );
  }
  return flags;
}

function parse(args: string[]) {
  return parseArgs({
    args,
    allowPositionals: true,
    strict: true,
    options: {
      dir: { type: 'string' },
      provider: { type: 'string' },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'max-steps': { type: 'string', default: String(DEFAULT_MAX_STEPS) },
      'context-window': { type: 'string' },
      json: { type: 'boolean', default: false },
      subagents: { type: 'boolean', default: false },
      dashboard: { type: 'boolean', default: false },
      port: { type: 'string', default: '0' },
      mcp: { type: 'string', multiple: true },
      timeline: { type: 'boolean', default: false },
      trace: { type: 'string' },
      record: { type: 'string' },
      replay: { type: 'string' },
      'fork-at': { type: 'string' },
      'edit-result': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}

function providerName(value: string): ProviderName {
  const name = value.trim().toLowerCase();
  if ((PROVIDERS as readonly string[]).includes(name)) return name as ProviderName;
  throw new UsageError(`--provider must be one of ${PROVIDERS.join(', ')}; got "${value}".`);
}

function nonEmpty(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new UsageError(`${flag} needs a value.`);
  return value.trim();
}

function url(value: string): string {
  try {
    const parsed = new URL(value);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return value;
  } catch {
    // reported below
  }
  throw new UsageError(
    `--base-url must be an http(s) URL such as http://127.0.0.1:11434/v1; got "${value}".`,
  );
}

function traceTarget(value: string): string {
  const match = /^otlp=(.+)$/.exec(value.trim());
  try {
    const parsed = new URL(match?.[1] ?? '');
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href;
  } catch {
    // reported below
  }
  throw new UsageError(
    `--trace must be otlp=<http(s) URL>, e.g. otlp=http://127.0.0.1:4318/v1/traces; got "${value}".`,
  );
}

function integer(value: string, flag: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}; got "${value}".`);
  }
  return n;
}
