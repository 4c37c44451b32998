import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { TestScheduler } from 'rxjs/testing';
import { runAgent, type AgentMessage, type RunAgentConfig } from '@rxagent/core';
import { diffRuns, type RunDiff } from './diff-runs.js';
import { recordRun } from './record-run.js';
import { recordedModel } from './recorded-model.js';
import { recordedApprover, recordedTools } from './recorded-tools.js';
import { readRunLog, readRunLogFile } from './read-run-log.js';
import { recordedArrivals } from './recorded-messages.js';
import { withRecordedMessages } from './redeliver.js';
import { type RunLog } from './run-log.js';
import { memoryLog } from './run-log-sink.js';

/**
 * What the current code runs a recording with: its config without the model (the recording
 * answers) and the input (the recording's).
 *
 * @example
 * const config: SuiteConfig = { tools: [read, write], system: SYSTEM_PROMPT };
 */
export type SuiteConfig = Omit<RunAgentConfig, 'model' | 'prompt' | 'messages' | 'runId' | 'scheduler'>;

/**
 * Options of `replaySuite`.
 *
 * @example
 * await replaySuite('test/recordings', { config: (log) => ({ tools, system: promptFor(log.header.runId) }) });
 */
export interface ReplaySuiteOptions {
  /** The current code's config, or one per recording. */
  config: SuiteConfig | ((log: RunLog) => SuiteConfig);
}

/**
 * One recording of a suite: `same` when the current code sends the very requests it recorded,
 * `changed` (with the diff) when a request would now differ, `error` when the log cannot be read.
 *
 * @example
 * const failed = report.runs.filter((r: SuiteRun) => r.result !== 'same');
 */
export interface SuiteRun {
  readonly file: string;
  readonly runId?: string;
  readonly result: 'same' | 'changed' | 'error';
  readonly diff?: RunDiff;
  readonly error?: string;
}

/**
 * What a suite found, as plain JSON (`formatSuiteReport` writes it as Markdown).
 *
 * @example
 * if (report.changed + report.errors > 0) process.exitCode = 1;
 */
export interface SuiteReport {
  readonly runs: readonly SuiteRun[];
  readonly changed: number;
  readonly errors: number;
}

/** The input the recorded run started from: its prior transcript and its prompt. */
function inputOf(log: RunLog): { messages: readonly AgentMessage[]; prompt: AgentMessage[] } {
  const events = log.events.map((e) => e.event);
  const start = events.find((e) => e.type === 'agent-start');
  const prompt: AgentMessage[] = [];
  const first = events.findIndex((e) => e.type === 'turn-start');
  for (let i = first + 1; i < events.length; i++) {
    const e = events[i];
    if (e?.type === 'message-start' && e.message.role === 'assistant') break;
    if (e?.type === 'message-end' && e.message.role === 'user') prompt.push(e.message);
  }
  return { messages: (start?.type === 'agent-start' ? start.messages : undefined) ?? [], prompt };
}

/**
 * Runs one recording again with the current code: a model that answers as the recorded one did
 * (`recordedModel`), the tools answering with the recorded results (`recordedTools`), the recorded
 * approvals, the messages the run got through `steering$` / `followUp$` delivered again at the
 * points where they came (`config`'s own sources are not used), in virtual time — nothing live
 * is called. Returns the new run's log.
 *
 * @example
 * const rerun = rerunRecording(log, { tools, system });
 * console.log(diffRuns(log, rerun).firstDifferentRequest);
 */
export function rerunRecording(log: RunLog, config: SuiteConfig): RunLog {
  const sink = memoryLog();
  const scheduler = new TestScheduler(() => undefined);
  const { messages, prompt } = inputOf(log);
  // The recording's steering and follow-up messages, not the config's sources: each comes again
  // at the point of the step where the original got it.
  const { steering$: _steering, followUp$: _followUp, ...own } = config;
  scheduler.run(() => {
    const run$ = runAgent({
      ...withRecordedMessages(own, recordedArrivals(log)),
      model: recordedModel(log),
      tools: recordedTools(log, config.tools ?? []),
      approver: recordedApprover(log),
      runId: log.header.runId,
      messages,
      prompt,
      scheduler,
    });
    // A failing run is recorded with its end: the diff shows where it stopped.
    recordRun(run$, sink).subscribe({ error: () => undefined });
  });
  return readRunLog(sink.lines);
}

/**
 * A regression suite from recordings: every run log (`*.jsonl`) in `dir` is run again with the
 * current code — its config from `options.config`, the model and tools answered from the
 * recording, in virtual time, nothing live — and each run whose model requests would now differ
 * (a prompt, a tool schema, a transcript change) is reported with the diff (`diffRuns`).
 *
 * @param dir The folder of recordings (`fileLog` writes them).
 * @param options The current code's config.
 * @return The report (plain JSON); `formatSuiteReport` for Markdown.
 *
 * @example
 * const report = await replaySuite('test/recordings', { config: { tools, system: SYSTEM_PROMPT } });
 * console.log(formatSuiteReport(report));
 * if (report.changed > 0) process.exitCode = 1;
 */
export function replaySuite(dir: string, options: ReplaySuiteOptions): Promise<SuiteReport> {
  return Promise.resolve().then(() => {
    const files = readdirSync(dir)
      .filter((f) => f.endsWith('.jsonl'))
      .sort();
    const runs = files.map((file): SuiteRun => {
      let log: RunLog;
      try {
        log = readRunLogFile(join(dir, file));
      } catch (error) {
        return { file, result: 'error', error: error instanceof Error ? error.message : String(error) };
      }
      const config = typeof options.config === 'function' ? options.config(log) : options.config;
      const diff = diffRuns(log, rerunRecording(log, config));
      return {
        file,
        runId: log.header.runId,
        result: diff.firstDifferentRequest ? 'changed' : 'same',
        ...(diff.firstDifferentRequest ? { diff } : {}),
      };
    });
    return {
      runs,
      changed: runs.filter((r) => r.result === 'changed').length,
      errors: runs.filter((r) => r.result === 'error').length,
    };
  });
}
