import { jsonSchema, tool, type ChatModel, type Message } from '@rxagent/core';
import type { OutputGuardrail } from '@rxagent/core/guardrails';
import { durableTool, idempotencyKey, type DurableTool } from '@rxagent/durable';
import { textTurn, toolCallTurn } from '@rxagent/testing';
import { join } from 'node:path';
import { concatMap, defer, from, map, timer } from 'rxjs';
import { pause } from './pause.js';
import { RELEASE } from './release-plan.js';
import { readEffects, writeEffect } from './side-effect-files.js';
import type { WorkerProgress } from './worker-progress.js';

// The demo's second run: a release report that checks three services in parallel, reads a
// steering message, passes an output guardrail and answers in a JSON shape.

/** The file the service checks write to, a line per check keyed by its call. */
export const CHECKS = 'checks.txt';
/** The services the report checks, at once; each check takes longer than the one before. */
export const SERVICES = ['api', 'db', 'queue'] as const;
/** What the demo steers the report with while it checks. */
export const STEERING = 'Add the rollback plan to the report.';
/** Each call of the report model a worker made: `report step <n> (<worker>)`. */
export const REPORT_CALLS = 'report-model-calls.txt';

/** The report's shape: registered by name in the workers (`outputSchemas`). */
export const REPORT_SCHEMA = jsonSchema<{
  release: string;
  services: { name: string; healthy: boolean }[];
  note: string;
}>({
  type: 'object',
  properties: {
    release: { type: 'string' },
    services: {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, healthy: { type: 'boolean' } },
        required: ['name', 'healthy'],
      },
    },
    note: { type: 'string' },
  },
  required: ['release', 'services', 'note'],
});

/** An output guardrail: no report may carry a password. */
export const NO_SECRETS: OutputGuardrail = {
  name: 'no-secrets',
  check: (output) =>
    /password/i.test(output.text)
      ? { tripped: true, reason: 'The report contains a password.' }
      : { tripped: false },
};

/** The report for a transcript: the checks at once, then the JSON report (with the steering read). */
function reportTurn(messages: readonly Message[]) {
  const usage = { inputTokens: 400, outputTokens: 40 };
  const checked = messages.filter((m) => m.role === 'tool');
  if (checked.length === 0) {
    return toolCallTurn(
      SERVICES.map((service, i) => ({ id: `check_${i + 1}`, name: 'check_service', args: { service } })),
      { text: 'Checking the services at once.', usage },
    );
  }
  const steered = messages.some(
    (m) => m.role === 'user' && typeof m.content === 'string' && m.content === STEERING,
  );
  const report = {
    release: RELEASE,
    services: SERVICES.map((name) => ({ name, healthy: true })),
    note: steered ? `Rollback plan: switch traffic back to the release before ${RELEASE}.` : 'All healthy.',
  };
  return textTurn(JSON.stringify(report), { chunks: 6, usage });
}

/**
 * The report model (scripted, a function of the transcript, so any worker continues it).
 *
 * @example
 * startWorker({ databaseUrl, models: { report: reportModel() }, tools: [checkServiceTool({ dir, workerId })] });
 */
export function reportModel(onCall: (step: number) => void = () => undefined): ChatModel {
  return {
    provider: 'scripted',
    modelId: 'release-report',
    stream: (request) =>
      defer(() => {
        onCall(request.messages.some((m) => m.role === 'tool') ? 2 : 1);
        return from(reportTurn(request.messages).events);
      }).pipe(concatMap((event, i) => timer(i === 0 ? 200 : 40).pipe(map(() => event)))),
  };
}

/**
 * `check_service`: checks a service (api 1 s, db 2 s, queue 3 s) and writes a line to
 * `checks.txt` under the call's key, unless the key is there: idempotent.
 *
 * @example
 * startWorker({ databaseUrl, models, tools: [checkServiceTool({ dir, workerId: 'worker-a' })] });
 */
export function checkServiceTool(options: { dir: string; workerId: string }): DurableTool {
  const file = join(options.dir, CHECKS);
  const check = tool({
    name: 'check_service',
    description: 'Check that a service is healthy',
    parameters: jsonSchema<{ service: string }>({
      type: 'object',
      properties: { service: { type: 'string' } },
      required: ['service'],
    }),
    execute: async ({ service }, ctx) => {
      const key = idempotencyKey(ctx);
      const seconds = SERVICES.indexOf(service as (typeof SERVICES)[number]) + 1;
      ctx.progress({
        worker: options.workerId,
        stage: 'started',
        text: `checking ${service} (${seconds} s)`,
      } satisfies WorkerProgress);
      await pause(seconds * 1000, ctx);
      if (!readEffects(file).some((l) => l.startsWith(`${key} `)))
        writeEffect(file, key, `${service} healthy (${options.workerId})`);
      return `${service} is healthy (${options.workerId})`;
    },
  });
  return durableTool(check, { durability: 'idempotent' });
}
