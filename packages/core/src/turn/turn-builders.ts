import type { StepResult } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';
import type { StopGuard } from '../stop/stop-condition.js';
import { AppendLog } from '../util/append-log.js';
import type { MessageQueue } from './message-queue.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { TurnFields } from './turn-fields.js';
import { snapshotParts } from './turn-snapshot.js';
import { nextModelLog, transcriptLogs } from './transcript-logs.js';

// The lists a turn usually has empty, shared (read-only: a turn makes a new list to add to one).
const NONE: readonly never[] = Object.freeze([]);
const nonEmpty = <T>(list: readonly T[] | undefined): readonly T[] => (list?.length ? list : NONE);
const NO_OPERATOR_STATE: Readonly<Record<string, unknown>> = Object.freeze({});
// Shared by every first turn: read-only (the tool batch copies it before counting).
const NO_TOOL_ERRORS: ReadonlyMap<string, number> = new Map([]);

/**
 * The sources a run's first turn listens to.
 *
 * @example
 * const options: FirstTurnOptions = { guards: [mustFinish] };
 */
export interface FirstTurnOptions {
  steering?: readonly SteeringQueue[];
  followUps?: readonly MessageQueue[];
  guards?: readonly StopGuard[];
}

/** @internal The fields of a run's first turn over `prior` (the transcript so far) and the new input. */
export function firstTurnFields(
  run: RunFacts,
  prior: readonly AgentMessage[],
  input: readonly AgentMessage[],
  options: FirstTurnOptions,
): TurnFields {
  const { log, modelLog } = transcriptLogs([...prior, ...input]);
  return {
    run,
    step: 1,
    log,
    modelLog,
    stepLog: AppendLog.of<StepResult>(),
    usage: emptyUsage(),
    next: NONE,
    steering: nonEmpty(options.steering),
    followUps: nonEmpty(options.followUps),
    guards: nonEmpty(options.guards),
    toolGuardrails: NONE,
    toolErrors: NO_TOOL_ERRORS,
    lengthRecoveries: 0,
    operators: NO_OPERATOR_STATE,
  };
}

/** @internal The fields of the turn after `turn`: its transcript and steps, with `input` appended. */
export function nextTurnFields(
  turn: TurnFields,
  step: StepResult,
  input: readonly AgentMessage[],
): TurnFields {
  const log = turn.log.append(...input);
  return {
    run: turn.run,
    step: turn.step + 1,
    log,
    modelLog: nextModelLog(turn.log, turn.modelLog, log, input),
    stepLog: turn.stepLog.append(step),
    usage: turn.usage,
    next: NONE,
    steering: turn.steering,
    followUps: turn.followUps,
    guards: turn.guards,
    toolGuardrails: turn.toolGuardrails,
    toolErrors: turn.toolErrors,
    lengthRecoveries: turn.lengthRecoveries,
    toolSet: turn.toolSet,
    operators: turn.operators,
  };
}

/** @internal The fields of the turn a snapshot was taken of, in the run `run`. */
export function snapshotTurnFields(run: RunFacts, snapshot: RunSnapshot): TurnFields {
  const parts = snapshotParts(snapshot);
  const messages = snapshot.messages;
  const fields: TurnFields = {
    run,
    step: snapshot.step,
    ...transcriptLogs([...messages]),
    stepLog: AppendLog.of(parts.steps),
    usage: { ...snapshot.usage },
    next: [...snapshot.next],
    steering: parts.pendingSteering.size > 0 ? [{ queue: parts.pendingSteering, mode: 'after-turn' }] : [],
    followUps: parts.pendingFollowUps.size > 0 ? [parts.pendingFollowUps] : [],
    guards: [],
    toolGuardrails: [],
    toolErrors: new Map(Object.entries(snapshot.toolErrors)),
    lengthRecoveries: snapshot.lengthRecoveries,
    operators: { ...snapshot.operators },
    ...(parts.assistant ? { assistant: parts.assistant } : {}),
    ...(parts.toolResults ? { toolResults: parts.toolResults } : {}),
    ...(snapshot.stop ? { stop: snapshot.stop } : {}),
    ...(snapshot.output !== undefined ? { output: snapshot.output } : {}),
  };
  return fields;
}
