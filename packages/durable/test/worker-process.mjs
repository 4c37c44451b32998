// A durable worker in its own process, for the crash tests and the crash demo.
// Settings come as one JSON argument; it prints "ready <id>" once it takes runs, and its runs'
// tool calls append to settings.file.
import { durableSubagent, durableTool, idempotencyKey, startWorker } from '@rxagent/durable';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { executeTools, jsonSchema, llmStep } from '@rxagent/core';
import { mcpTools } from '@rxagent/mcp';
import {
  answerModel,
  delegateModel,
  appendLineTool,
  guardrails,
  mcpSumModel,
  parallelModel,
  payTool,
  planModel,
  slowStepTool,
  trimContext,
} from './agent-fixture.mjs';
import { checkpointModel, engineContext, workModel } from './context-fixture.mjs';

const settings = JSON.parse(process.argv[2] ?? '{}');
const {
  databaseUrl,
  workerId,
  file,
  toolDelayMs = 0,
  latencyMs = 0,
  lines = 3,
  deadAfterMs = 600,
  holdCall,
  holdModel,
} = settings;
const callLog = `${file}.calls`;
// A real MCP server (settings.mcp): its tools are registered by name like any other; get-sum
// asks for approval. Its process ends with this one (stdio: it exits when its input closes).
const everything = fileURLToPath(
  new URL('../node_modules/@modelcontextprotocol/server-everything/dist/index.js', import.meta.url),
);
const mcp = settings.mcp
  ? await mcpTools([
      {
        name: 'everything',
        command: process.execPath,
        args: [everything, 'stdio'],
        include: ['get-sum', 'echo'],
        needsApproval: ['get-sum'],
      },
    ])
  : undefined;
// A call ("<runId> <callId>") that never ends on this worker: the crash tests kill it while it
// surely runs, instead of guessing how long a delay a busy machine needs.
const held = (ctx) => holdCall !== undefined && `${ctx.runId} ${ctx.toolCallId}` === holdCall;
const hold = (ctx) => (held(ctx) ? new Promise(() => undefined) : Promise.resolve());
// A model call ("<prompt>|<tool results so far>") that stops after its first delta on this worker.
const holdAfterFirstDelta = (prompt, done) => holdModel !== undefined && `${prompt}|${done}` === holdModel;
// Ten long steps that outgrow the engine's small window: summarized, then the summary updated.
// Their model and summary requests are logged (`<file>.requests`, `<file>.summaries`).
const work = workModel({ steps: 10, workerId, requestLog: `${file}.requests`, holdAfterFirstDelta });
const engine = engineContext({
  model: work,
  summaryModel: checkpointModel({ workerId, summaryLog: `${file}.summaries` }),
});

/** The same append, made idempotent with the call's key: a line already there is not written again. */
const keyedAppend = durableTool(
  {
    ...appendLineTool(file, { delayMs: toolDelayMs, name: 'keyed_append' }),
    execute: async ({ line }, ctx) => {
      await hold(ctx);
      if (toolDelayMs > 0) await new Promise((r) => setTimeout(r, toolDelayMs));
      const key = idempotencyKey(ctx);
      const seen =
        existsSync(file) &&
        readFileSync(file, 'utf8')
          .split('\n')
          .some((l) => l.startsWith(`${key} `));
      if (!seen) appendFileSync(file, `${key} ${line}\n`);
      return `appended ${line}`;
    },
  },
  { durability: 'idempotent' },
);

const worker = await startWorker({
  databaseUrl,
  workerId,
  deadAfterMs,
  models: {
    plan: planModel({ lines, latencyMs, callLog }),
    'plan-keyed': planModel({ lines, latencyMs, toolName: 'keyed_append', callLog, holdAfterFirstDelta }),
    'plan-approval': planModel({ lines, latencyMs, approvalEvery: 2, toolName: 'keyed_append', callLog }),
    // Three payments, each under the id call_0 (a provider that repeats ids).
    'pay-repeat': planModel({ lines: 3, latencyMs, toolName: 'pay', callId: 'call_0', cents: 100, callLog }),
    // One transfer of 99,999,999 cents.
    'pay-big': planModel({ lines: 1, latencyMs, toolName: 'pay', cents: 99_999_999, callLog }),
    // Two turns of four parallel slow_step calls, finishing in reverse order.
    parallel: parallelModel({ batches: 2, calls: 4, stepMs: settings.stepMs ?? 100, callLog }),
    // plan-approval answering in JSON at the end.
    'plan-approval-json': planModel({
      lines,
      latencyMs,
      approvalEvery: 2,
      toolName: 'keyed_append',
      callLog,
      finalText: '{"city":"Paris","tempC":21}',
    }),
    // Three calls at once, each waiting for its approval.
    'parallel-approval': parallelModel({ batches: 1, calls: 3, toolName: 'guarded_append', callLog }),
    weather: answerModel('{"city":"Paris","tempC":21}'),
    shouting: answerModel('DONE!'),
    delegate: delegateModel({ callLog }),
    'mcp-sum': mcpSumModel(),
    work,
  },
  tools: [
    appendLineTool(file, { delayMs: toolDelayMs, hold }),
    appendLineTool(file, { delayMs: toolDelayMs, name: 'guarded_append', needsApproval: true }),
    keyedAppend,
    durableTool(payTool(`${file}.charges`, { idempotencyKey }), { durability: 'idempotent' }),
    durableTool(slowStepTool(`${file}.steps`, { idempotencyKey }), { durability: 'idempotent' }),
    // A sub-agent as a durable child run (plan-keyed, its appends slowed by toolDelayMs).
    durableSubagent({
      name: 'helper',
      description: 'Appends lines',
      databaseUrl,
      spec: { model: 'plan-keyed', tools: ['keyed_append'] },
      client: { pollIntervalMs: 50 },
    }),
    ...(mcp?.tools ?? []),
  ],
  guardrails: guardrails(`${file}.guards`),
  contextManagers: { trim: trimContext(`${file}.context`), engine },
  pipelines: { plain: () => (turn$) => executeTools()(llmStep()(turn$)) },
  outputSchemas: {
    weather: jsonSchema({
      type: 'object',
      properties: { city: { type: 'string' }, tempC: { type: 'number' } },
      required: ['city', 'tempC'],
    }),
  },
  concurrency: { perWorker: settings.perWorker ?? 8 },
  onFenced: () => process.exit(3),
});
console.log(`ready ${worker.workerId}`);
process.on(
  'SIGTERM',
  () =>
    void worker
      .stop()
      .then(() => mcp?.close())
      .then(() => process.exit(0)),
);
