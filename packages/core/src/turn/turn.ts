import type { Observable } from 'rxjs';
import type { StepResult } from '../events/agent-event.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
  Usage,
} from '../messages/types.js';
import { addUsage } from '../messages/usage.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { StopSignal } from '../events/stop-signal.js';
import type { EagerHandle } from './eager-handle.js';
import type { MessageQueue } from './message-queue.js';
import type { AnyTool } from '../tools/tool.js';
import { toToolSpec } from '../tools/validate-args.js';
import type { RunFacts } from './run-facts.js';
import { toolMap } from './tool-map.js';

import type { TurnContextUpdate, TurnFields } from './turn-fields.js';
import { snapshotOf } from './turn-snapshot.js';
import { nextModelLog } from './transcript-logs.js';
import { TurnValue } from './turn-value.js';
import {
  firstTurnFields,
  nextTurnFields,
  snapshotTurnFields,
  type FirstTurnOptions,
} from './turn-builders.js';
import type { RunSnapshot } from './run-snapshot.js';

const TURN = Symbol.for('rxagent.turn');

/**
 * One turn of a run (a model call and its tools), an immutable value. It carries the run's
 * facts, the step, the transcript as of this point, the projected context for the model
 * call, the model's message, the tool results, the usage and steps so far, and whether to
 * stop. Operators never change a turn: they emit a new one (`withAssistant`,
 * `withToolResults`, `withStop`, …). `messages` is a snapshot that later appends never change
 * (appending is O(1) amortised, so 10,000-step runs stay linear).
 *
 * @example
 * const noEmptyAnswers = (): LoopOperator =>
 *   turnOperator('noEmptyAnswers', (turn) =>
 *     of(turn.assistant?.stopReason === 'stop' && !assistantText(turn.assistant) ? turn.withNext([userMessage('Please answer.')]) : turn));
 */
export class Turn extends TurnValue {
  /**
   * The first turn of a run over `prior` (the transcript so far) and the new input.
   *
   * @example
   * const turn = Turn.first(facts, [], [userMessage('hi')]);
   */
  static first(
    run: RunFacts,
    prior: readonly AgentMessage[],
    input: readonly AgentMessage[],
    options: FirstTurnOptions = {},
  ): Turn {
    return new Turn(firstTurnFields(run, prior, input, options));
  }

  /** True for a `Turn` (from any copy of rxagent). */
  static is(value: unknown): value is Turn {
    return typeof value === 'object' && value !== null && (value as { [TURN]?: unknown })[TURN] === true;
  }

  /** This turn with `message` as the model's answer (appended to the transcript, usage added). */
  withAssistant(
    message: AssistantMessage,
    next: readonly UserMessage[] = this.next,
    lengthRecoveries = this.lengthRecoveries,
  ): Turn {
    const log = this.log.append(message);
    return this.copy({
      assistant: message,
      log,
      modelLog: nextModelLog(this.log, this.modelLog, log, [message]),
      usage: message.usage ? addUsage(this.usage, message.usage) : this.usage,
      next,
      lengthRecoveries,
    });
  }

  /** This turn with its calls' results (appended to the transcript in the order given). */
  withToolResults(
    results: readonly ToolResultMessage[],
    toolErrors: ReadonlyMap<string, number> = this.toolErrors,
  ): Turn {
    let usage = this.usage;
    for (const result of results) if (result.usage) usage = addUsage(usage, result.usage);
    const log = this.log.append(...results);
    return this.copy({
      toolResults: results,
      usage,
      log,
      modelLog: nextModelLog(this.log, this.modelLog, log, results),
      toolErrors,
    });
  }

  /**
   * The run as of this turn, as plain JSON: transcript, step, usage, this turn's model message
   * and results when it has them, messages waiting, every operator's state, and by name what a
   * resuming process must supply again. `resumeRun(snapshot, config)` continues it.
   *
   * @example
   * pipeline: (t$) => defaultPipeline(config)(t$).pipe(tap((item) => isTurn(item) && save(item.snapshot())));
   */
  snapshot(): RunSnapshot {
    return snapshotOf(this);
  }

  /** @internal The turn a snapshot was taken of, in the run `run` (see `resumeRun`). */
  static fromSnapshot(run: RunFacts, snapshot: RunSnapshot): Turn {
    return new Turn(snapshotTurnFields(run, snapshot));
  }

  /**
   * This turn, and the turns after it, with `value` stored for the operator `name` (plain JSON).
   *
   * @example
   * return of(turn.withOperatorState('myRetry', retries + 1));
   */
  withOperatorState(name: string, value: unknown): Turn {
    return this.copy({ operators: { ...this.operators, [name]: value } });
  }

  /** @internal This turn carrying the calls its model call started early (eager tools). */
  withEagerCalls(eager: EagerHandle): Turn {
    return this.copy({ eager });
  }

  /** This turn with the run's validated final answer. */
  withOutput(output: unknown): Turn {
    return this.copy({ output });
  }

  /** This turn, ending the run after it. */
  withStop(signal: StopSignal): Turn {
    return this.copy({ stop: signal });
  }

  /** This turn sending `messages` to the model instead of its transcript. */
  withContext(
    messages: readonly Message[],
    recoverOverflow?: (error: unknown) => Observable<TurnContextUpdate>,
  ): Turn {
    return this.copy({ context: messages, recoverOverflow: recoverOverflow ?? this.recoverOverflow });
  }

  /** This turn with `extra` added to the run's usage (a context summary call). */
  withUsage(extra: Usage): Turn {
    return this.copy({ usage: addUsage(this.usage, extra) });
  }

  /** This turn with messages to deliver at the start of the next turn (keeps the run going). */
  withNext(messages: readonly UserMessage[]): Turn {
    return this.copy({ next: [...this.next, ...messages] });
  }

  /** This turn listening to one more steering queue. */
  withSteering(queue: MessageQueue, mode: 'interrupt' | 'after-turn'): Turn {
    if (this.steering.some((s) => s.queue === queue)) return this;
    return this.copy({ steering: [...this.steering, { queue, mode }] });
  }

  /** This turn with one more follow-up queue. */
  withFollowUps(queue: MessageQueue): Turn {
    if (this.followUps.includes(queue)) return this;
    return this.copy({ followUps: [...this.followUps, queue] });
  }

  /**
   * This turn, and the turns after it, offering `tools` to the model instead of the run's tools:
   * for tool lists that change during a run (an MCP server's `listChanged`). The rest of the
   * run's facts stay as they are. Throws an `AgentConfigError` for malformed tools or duplicate names.
   */
  withTools(tools: readonly AnyTool[]): Turn {
    const map = toolMap(tools);
    return this.copy({ toolSet: { tools: map, specs: Object.freeze([...map.values()].map(toToolSpec)) } });
  }

  /** This turn, and the turns after it, with these tool guardrails around its calls (once each). */
  withToolGuardrails(guardrails: readonly ToolGuardrail[]): Turn {
    const added = guardrails.filter((g) => !this.toolGuardrails.includes(g));
    if (added.length === 0) return this;
    return this.copy({ toolGuardrails: [...this.toolGuardrails, ...added] });
  }

  /** This turn with one more stop guard. */
  withGuard(guard: StopGuard): Turn {
    if (this.guards.includes(guard)) return this;
    return this.copy({ guards: [...this.guards, guard] });
  }

  /** @internal The next turn: this one's transcript and steps, with `input` appended. */
  nextTurn(step: StepResult, input: readonly AgentMessage[]): Turn {
    return new Turn(nextTurnFields(this, step, input));
  }

  /** @internal This turn with messages appended (a closed batch, an abort marker). */
  appended(messages: readonly AgentMessage[]): Turn {
    const log = this.log.append(...messages);
    return this.copy({ log, modelLog: nextModelLog(this.log, this.modelLog, log, messages) });
  }

  private copy(changes: Partial<TurnFields>): Turn {
    // A turn holds every field a turn is made of: the copy reads them off this one, then takes
    // the changes before anyone else sees it (no intermediate object of 22 fields per change).
    return Object.assign(new Turn(this), changes);
  }
}

// On the prototype: a spread copy of a turn is not a turn (the loop refuses it as corrupted).
Object.defineProperty(Turn.prototype, TURN, { value: true });
