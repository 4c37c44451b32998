// A worker process of the crash demo: one durable worker with the release model and tools.
// The demo (main.ts) starts two of these, reads "ready <id>" from stdout, and kills one with
// SIGKILL mid-run. SIGTERM or SIGINT stops it cleanly.
import { startWorker } from '@rxagent/durable';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { notifyTool } from './notify-tool.js';
import { RELEASE_MODEL_LATENCY, releaseModel } from './release-plan.js';
import { releaseLogTool } from './release-log-tool.js';
import { MODEL_CALLS } from './side-effect-files.js';
import { checkServiceTool, NO_SECRETS, REPORT_CALLS, REPORT_SCHEMA, reportModel } from './report-plan.js';
import { parseWorkerSettings } from './worker-settings.js';

const settings = parseWorkerSettings(process.argv[2]);
const { workerId, dir } = settings;
const worker = await startWorker({
  databaseUrl: settings.databaseUrl,
  workerId,
  deadAfterMs: settings.deadAfterMs ?? 1000,
  models: {
    release: releaseModel(RELEASE_MODEL_LATENCY, (step) =>
      appendFileSync(join(dir, MODEL_CALLS), `step ${step} (${workerId})\n`),
    ),
    report: reportModel((step) =>
      appendFileSync(join(dir, REPORT_CALLS), `report step ${step} (${workerId})\n`),
    ),
  },
  tools: [
    notifyTool({ dir, workerId }),
    releaseLogTool({ dir, workerId }),
    checkServiceTool({ dir, workerId }),
  ],
  guardrails: { output: [NO_SECRETS] },
  outputSchemas: { 'release-report': REPORT_SCHEMA },
  onFenced: () => process.exit(3),
});
console.log(`ready ${worker.workerId}`);

let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  void worker.stop().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
