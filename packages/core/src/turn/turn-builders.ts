import type { StepResult } from '../events/agent-event.js';
import { isModelVisible } from '../messages/convert-to-model.js';
import type { AgentMessage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';
import type { StopGuard } from '../stop/stop-condition.js';
import { AppendLog } from '../util/append-log.js';
import type { MessageQueue } from './message-queue.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';
import type { RunSnapshot } from './run-snapshot.js';
import type { TurnFields } from './turn-fields.js';
import { snapshotParts } from './turn-snapshot.js';
import type { Turn } from './turn.js';

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
  const all = [...prior, ...input];
  return {
    run,
    step: 1,
    log: AppendLog.of(all),
    modelLog: AppendLog.of(all.filter(isModelVisible)),
    stepLog: AppendLog.of<StepResult>(),
    usage: emptyUsage(),
    next: [],
    steering: options.steering ?? [],
    followUps: options.followUps ?? [],
    guards: options.guards ?? [],
    toolGuardrails: [],
    toolErrors: NO_TOOL_ERRORS,
    lengthRecoveries: 0,
    operators: NO_OPERATOR_STATE,
  };
}

/** @internal All that `turn` is made of (for copies and the next turn). */
export function fieldsOf(turn: Turn): TurnFields {
  return {
    run: turn.run,
    step: turn.step,
    log: turn.log,
    modelLog: turn.modelLog,
    stepLog: turn.stepLog,
    usage: turn.usage,
    context: turn.context,
    recoverOverflow: turn.recoverOverflow,
    assistant: turn.assistant,
    toolResults: turn.toolResults,
    stop: turn.stop,
    next: turn.next,
    steering: turn.steering,
    followUps: turn.followUps,
    guards: turn.guards,
    toolGuardrails: turn.toolGuardrails,
    toolErrors: turn.toolErrors,
    lengthRecoveries: turn.lengthRecoveries,
    toolSet: turn.toolSet,
    output: turn.output,
    operators: turn.operators,
    eager: turn.eager,
  };
}

/** @internal The fields of the turn after `turn`: its transcript and steps, with `input` appended. */
export function nextTurnFields(
  turn: TurnFields,
  step: StepResult,
  input: readonly AgentMessage[],
): TurnFields {
  return {
    run: turn.run,
    step: turn.step + 1,
    log: turn.log.append(...input),
    modelLog: turn.modelLog.append(...input.filter(isModelVisible)),
    stepLog: turn.stepLog.append(step),
    usage: turn.usage,
    next: [],
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
    log: AppendLog.of(messages),
    modelLog: AppendLog.of(messages.filter(isModelVisible)),
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
