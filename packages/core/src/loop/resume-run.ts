import { defer, type Observable } from 'rxjs';
import { RunSnapshotError } from '../errors/run-snapshot-error.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { RUN_SNAPSHOT_VERSION, type RunSnapshot } from '../turn/run-snapshot.js';
import { FINAL_TOOL } from './prepare-output.js';
import { startRun } from './run-agent.js';
import { markInstrumentable } from './attach-instrument.js';

/**
 * What `resumeRun` takes: a run's config without its input (the snapshot holds the transcript
 * and the run's id).
 *
 * @example
 * const config: ResumeRunConfig = { model, tools: [read, write], system: 'Be brief.' };
 */
export type ResumeRunConfig = Omit<RunAgentConfig, 'prompt' | 'messages' | 'runId'>;

function missing(what: string, fix: string): RunSnapshotError {
  return new RunSnapshotError(
    `The snapshot's run used ${what}, which the resuming config does not supply: ${fix}.`,
  );
}

function check(snapshot: RunSnapshot, config: ResumeRunConfig): void {
  if (typeof snapshot !== 'object' || snapshot === null || !Array.isArray(snapshot.messages)) {
    throw new RunSnapshotError(
      'resumeRun needs a snapshot made by turn.snapshot() (plain JSON with its messages).',
    );
  }
  const version: unknown = snapshot.version;
  if (version !== RUN_SNAPSHOT_VERSION) {
    throw new RunSnapshotError(
      `The snapshot was written in format version ${String(version)}; this rxagent reads version ${RUN_SNAPSHOT_VERSION}. Resume it with the rxagent that wrote it.`,
    );
  }
  const { requires } = snapshot;
  const tools = new Set((config.tools ?? []).map((t) => t.name));
  if (config.output !== undefined) tools.add(FINAL_TOOL); // the run adds it itself
  for (const name of requires.tools) {
    if (!tools.has(name)) throw missing(`the tool "${name}"`, `pass it again in tools`);
  }
  const guardrails = new Set(
    [
      ...(config.inputGuardrails ?? []),
      ...(config.outputGuardrails ?? []),
      ...(config.toolGuardrails ?? []),
    ].map((g) => g.name),
  );
  const custom = config.pipeline !== undefined;
  for (const name of requires.guardrails) {
    // A custom pipeline may put guardrails in with its own operators (toolGuard, inputGuard…).
    if (!guardrails.has(name) && !custom)
      throw missing(`the guardrail "${name}"`, 'pass it again with the same name');
  }
  if (requires.contextManager && !config.contextManager && !custom) {
    throw missing('a context manager', 'pass contextManager again');
  }
  if (requires.output && config.output === undefined)
    throw missing('a structured answer', 'pass output again');
  if (requires.pipeline === 'custom' && !custom) throw missing('its own pipeline', 'pass pipeline again');
}

/**
 * Continues a run from a snapshot (`turn.snapshot()`, plain JSON from any process): the same run
 * id, transcript, step, usage, operator state and queued messages, with what holds functions —
 * model, tools, guardrails, context manager, output schema, pipeline — supplied again by
 * `config`. A snapshot taken after a step's tools goes on from that step's decision; one taken
 * before its model call redoes the step. Something the snapshot names that `config` lacks fails
 * at once with a `RunSnapshotError` naming it, before any model call. The run emits
 * `agent-start` (with the snapshot's transcript) and then what the uninterrupted run would have.
 *
 * @param snapshot The snapshot.
 * @param config The run's config, without prompt, messages or run id.
 * @return The resumed run's events.
 *
 * @example
 * const saved = JSON.stringify(turn.snapshot());
 * resumeRun(JSON.parse(saved), { model, tools }).subscribe(console.log);
 */
export function resumeRun(snapshot: RunSnapshot, config: ResumeRunConfig): Observable<AgentEvent> {
  // As with runAgent, an instrument applied right after it becomes the run's own (a recorder).
  return markInstrumentable(
    resumed(snapshot, config),
    (instrument) => resumeRun(snapshot, { ...config, instrument }),
    config.instrument,
  );
}

function resumed(snapshot: RunSnapshot, config: ResumeRunConfig): Observable<AgentEvent> {
  return defer(() => {
    check(snapshot, config);
    const given = config as RunAgentConfig & { prompt?: unknown; messages?: unknown };
    if (given.prompt !== undefined || given.messages !== undefined) {
      throw new RunSnapshotError(
        'resumeRun takes the transcript from the snapshot: remove prompt and messages from the config (queue a message with steering$ or followUp$ instead).',
      );
    }
    return startRun(config, snapshot);
  });
}
