import { StopGuardEscalationError } from '../errors/agent-errors.js';
import { PipelineError } from '../errors/pipeline-error.js';
import type { AgentEvent, StepResult } from '../events/agent-event.js';
import { toolCalls, toolErrorResult } from '../messages/message-helpers.js';
import type { AgentMessage } from '../messages/types.js';
import { stopSignal, type StopSignal } from '../events/stop-signal.js';
import { toUserMessage } from '../turn/message-queue.js';
import type { Turn } from '../turn/turn.js';

/** What the loop does after a turn: go on with the next one, or end the run. */
export type TurnDecision =
  | { events: AgentEvent[]; next: Turn; input: AgentMessage[] }
  | { events: AgentEvent[]; end: StopSignal; last: Turn };

const NOT_EXECUTED = 'Tool call was not executed: the pipeline has no executeTools().';

/**
 * Decides what follows a turn that came out of the pipeline: checks it has the model's
 * message, closes calls no `executeTools()` answered, emits `turn-end`, then — in this order
 * — stops on a stop signal, goes on for tool calls or queued messages, delivers follow-ups,
 * consults the stop guards, and otherwise ends with `completed`; `maxSteps` caps every "go on".
 *
 * @example
 * const decision = decideTurn(turnOut, 10);
 */
export function decideTurn(out: Turn | undefined, maxSteps: number): TurnDecision {
  if (!out) {
    throw new PipelineError(
      'The pipeline completed without passing the turn on: an operator dropped it. Operators must pass ' +
        'the Turn through (a filter over events must keep items for which isTurn(item) is true).',
    );
  }
  const assistant = out.assistant;
  // Stopped before its model call (an input guardrail): no step to end, nothing to answer.
  if (!assistant && out.stop) return { events: [], end: out.stop, last: out };
  if (!assistant) {
    throw new PipelineError(
      "A turn left the pipeline without the model's message: put llmStep() in the pipeline.",
    );
  }
  const events: AgentEvent[] = [];
  let turn = out;
  const calls = toolCalls(assistant);
  if (!turn.toolResults && calls.length > 0) {
    // No executeTools(): close the calls so the transcript stays valid for the next request.
    const now = turn.run.scheduler.now();
    const results = calls.map((call) => toolErrorResult(call, NOT_EXECUTED, now));
    for (const message of results)
      events.push({ type: 'message-start', message }, { type: 'message-end', message });
    turn = turn.withToolResults(results);
  }
  const step = turn.stepResult() as StepResult;
  events.push({ type: 'turn-end', step });
  const stepsDone = turn.steps.length + 1;
  const goOn = (input: AgentMessage[]): TurnDecision => {
    if (stepsDone >= maxSteps) {
      const signal = stopSignal('steps-limit', `Step limit reached: ${stepsDone}/${maxSteps}`, {
        context: { steps: stepsDone, maxSteps },
        source: 'maxSteps',
      });
      return { events, end: signal, last: turn };
    }
    return { events, next: turn.nextTurn(step, []), input: [...turn.next, ...input] };
  };
  const completed = () => stopSignal('completed', 'The model finished without calling a tool.');
  const wantsMore = calls.length > 0 || turn.next.length > 0 || turn.steering.some((s) => s.queue.size > 0);
  const followUpsWaiting = turn.followUps.some((q) => q.size > 0);
  // A natural finish (no calls, nothing queued) is `completed` even when a predicate also said stop.
  if (turn.stop) {
    const keep = wantsMore || followUpsWaiting || turn.stop.reason === 'guardrail';
    return { events, end: keep ? turn.stop : completed(), last: turn };
  }
  if (wantsMore) return goOn([]);
  if (followUpsWaiting) {
    const now = turn.run.scheduler.now();
    return goOn(turn.followUps.flatMap((q) => q.drain()).map((m) => toUserMessage(m, now)));
  }
  for (const guard of turn.guards) {
    let decision;
    try {
      decision = guard({ step, steps: [...turn.steps, step], messages: turn.messages });
    } catch (error) {
      events.push({
        type: 'warning',
        message: `A stop guard threw and was ignored: ${error instanceof Error ? error.message : String(error)}`,
      });
      continue;
    }
    if (decision?.escalate) throw new StopGuardEscalationError(decision.reason);
    if (decision?.inject) return goOn([toUserMessage(decision.inject, turn.run.scheduler.now())]);
  }
  return { events, end: completed(), last: turn };
}
