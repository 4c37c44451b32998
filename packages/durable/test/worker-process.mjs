// A durable worker in its own process, for the crash tests and the crash demo.
// Settings come as one JSON argument; it prints "ready <id>" once it takes runs, and its runs'
// tool calls append to settings.file.
import { durableTool, idempotencyKey, startWorker } from '@rxagent/durable';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { appendLineTool, planModel } from './agent-fixture.mjs';

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
// A call ("<runId> <callId>") that never ends on this worker: the crash tests kill it while it
// surely runs, instead of guessing how long a delay a busy machine needs.
const held = (ctx) => holdCall !== undefined && `${ctx.runId} ${ctx.toolCallId}` === holdCall;
const hold = (ctx) => (held(ctx) ? new Promise(() => undefined) : Promise.resolve());
// A model call ("<prompt>|<tool results so far>") that stops after its first delta on this worker.
const holdAfterFirstDelta = (prompt, done) => holdModel !== undefined && `${prompt}|${done}` === holdModel;

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
  },
  tools: [
    appendLineTool(file, { delayMs: toolDelayMs, hold }),
    appendLineTool(file, { delayMs: toolDelayMs, name: 'guarded_append', needsApproval: true }),
    keyedAppend,
  ],
  concurrency: { perWorker: settings.perWorker ?? 8 },
  onFenced: () => process.exit(3),
});
console.log(`ready ${worker.workerId}`);
process.on('SIGTERM', () => void worker.stop().then(() => process.exit(0)));
