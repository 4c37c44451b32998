import type { Observable } from 'rxjs';
import type { AgentEvent, StepResult } from '../events/agent-event.js';
import { isModelVisible } from '../messages/convert-to-model.js';
import type {
  AgentMessage,
  AssistantMessage,
  Message,
  ToolResultMessage,
  UserMessage,
  Usage,
} from '../messages/types.js';
import { addUsage, emptyUsage } from '../messages/usage.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { StopGuard } from '../stop/stop-condition.js';
import type { StopSignal } from '../events/stop-signal.js';
import { AppendLog } from '../util/append-log.js';
import type { MessageQueue } from './message-queue.js';
import type { ToolSpec } from '../model/chat-model.js';
import type { AnyTool } from '../tools/tool.js';
import { toToolSpec } from '../tools/validate-args.js';
import type { RunFacts, SteeringQueue } from './run-facts.js';
import { toolMap } from './tool-map.js';

const TURN = Symbol.for('rxagent.turn');
const NO_OPERATOR_STATE: Readonly<Record<string, unknown>> = Object.freeze({});

interface TurnFields {
  readonly run: RunFacts;
  readonly step: number;
  readonly log: AppendLog<AgentMessage>;
  readonly modelLog: AppendLog<Message>;
  readonly stepLog: AppendLog<StepResult>;
  readonly usage: Usage;
  readonly context?: readonly Message[];
  readonly recoverOverflow?: (error: unknown) => Observable<TurnContextUpdate>;
  readonly assistant?: AssistantMessage;
  readonly toolResults?: readonly ToolResultMessage[];
  readonly stop?: StopSignal;
  readonly next: readonly UserMessage[];
  readonly steering: readonly SteeringQueue[];
  readonly followUps: readonly MessageQueue[];
  readonly guards: readonly StopGuard[];
  readonly toolGuardrails: readonly ToolGuardrail[];
  readonly toolErrors: ReadonlyMap<string, number>;
  readonly lengthRecoveries: number;
  readonly toolSet?: ToolSet;
  readonly output?: unknown;
  readonly operators: Readonly<Record<string, unknown>>;
}

/** Tools that replace the run's from some turn on (`withTools`). */
interface ToolSet {
  readonly tools: ReadonlyMap<string, AnyTool>;
  readonly specs: readonly ToolSpec[];
}

/**
 * What a context manager's overflow recovery produced for the retried call.
 *
 * @example
 * const update: TurnContextUpdate = { messages: shorter, events: [{ type: 'compaction', strategy: 'trim', tokensBefore: 9e4, tokensAfter: 4e4, summarized: 0 }] };
 */
export interface TurnContextUpdate {
  readonly messages: readonly Message[];
  readonly events: readonly AgentEvent[];
  /** Usage of the work the recovery did (a summary call), added to the run's. */
  readonly usage?: Usage;
}

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
export class Turn {
  /** Tells a turn from the events around it in the pipeline. */
  readonly type = 'turn' as const;
  readonly run: RunFacts;
  /** 1-based. */
  readonly step: number;
  /** Usage of the run so far (this turn's model message included once it has one). */
  readonly usage: Usage;
  /** The messages to send instead of `modelMessages` (set by `compactContext`). */
  readonly context?: readonly Message[];
  /** Called once by `llmStep` on a context overflow (set by `compactContext`). */
  readonly recoverOverflow?: (error: unknown) => Observable<TurnContextUpdate>;
  /** The model's message (set by `llmStep`). */
  readonly assistant?: AssistantMessage;
  /** The results of this turn's calls in call order (set by `executeTools`). */
  readonly toolResults?: readonly ToolResultMessage[];
  /** Set to end the run after this turn. */
  readonly stop?: StopSignal;
  /** Messages delivered at the start of the next turn (length recovery, stop guards). */
  readonly next: readonly UserMessage[];
  /** Steering queues this turn listens to (the config's and those `steer()` attached). */
  readonly steering: readonly SteeringQueue[];
  /** Queues delivered when the run would stop. */
  readonly followUps: readonly MessageQueue[];
  /** Consulted when the model would stop by itself. */
  readonly guards: readonly StopGuard[];
  /** Tool guardrails `toolGuard()` put around the calls of this turn and the turns after it. */
  readonly toolGuardrails: readonly ToolGuardrail[];
  /** Consecutive failures per tool name (the `maxToolErrors` circuit breaker). */
  readonly toolErrors: ReadonlyMap<string, number>;
  /** Output-length recoveries so far in the run. */
  readonly lengthRecoveries: number;
  private readonly toolSet?: ToolSet;
  /** The validated final answer of a run with `output` (set by its structured-output stage). */
  readonly output?: unknown;
  /** What operators keep for the rest of the run, by operator name (JSON values). */
  private readonly operators: Readonly<Record<string, unknown>>;
  private readonly log: AppendLog<AgentMessage>;
  private readonly modelLog: AppendLog<Message>;
  private readonly stepLog: AppendLog<StepResult>;

  /** @internal Use `Turn.first` or the `with…` methods. */
  constructor(fields: TurnFields) {
    this.run = fields.run;
    this.step = fields.step;
    this.log = fields.log;
    this.modelLog = fields.modelLog;
    this.stepLog = fields.stepLog;
    this.usage = fields.usage;
    this.context = fields.context;
    this.recoverOverflow = fields.recoverOverflow;
    this.assistant = fields.assistant;
    this.toolResults = fields.toolResults;
    this.stop = fields.stop;
    this.next = fields.next;
    this.steering = fields.steering;
    this.followUps = fields.followUps;
    this.guards = fields.guards;
    this.toolGuardrails = fields.toolGuardrails;
    this.toolErrors = fields.toolErrors;
    this.lengthRecoveries = fields.lengthRecoveries;
    this.toolSet = fields.toolSet;
    this.output = fields.output;
    this.operators = fields.operators;
  }

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
    options: {
      steering?: readonly SteeringQueue[];
      followUps?: readonly MessageQueue[];
      guards?: readonly StopGuard[];
    } = {},
  ): Turn {
    const all = [...prior, ...input];
    return new Turn({
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
      toolErrors: new Map(),
      lengthRecoveries: 0,
      operators: NO_OPERATOR_STATE,
    });
  }

  /** True for a `Turn` (from any copy of rxagent). */
  static is(value: unknown): value is Turn {
    return typeof value === 'object' && value !== null && (value as { [TURN]?: unknown })[TURN] === true;
  }

  /** The transcript as of this point: a read-only snapshot (later appends never change it). */
  get messages(): readonly AgentMessage[] {
    return this.log.view();
  }

  /** What the model sees of the transcript (custom messages left out). */
  get modelMessages(): readonly Message[] {
    return this.modelLog.view();
  }

  /** Every completed step of the run before this one. */
  get steps(): readonly StepResult[] {
    return this.stepLog.view();
  }

  /** How many messages the transcript holds. */
  get messageCount(): number {
    return this.log.length;
  }

  /** @internal The transcript's log (for incremental checks and the loop). */
  get transcript(): AppendLog<AgentMessage> {
    return this.log;
  }

  /** @internal The model-visible transcript's log. */
  get modelTranscript(): AppendLog<Message> {
    return this.modelLog;
  }

  /** This turn with `message` as the model's answer (appended to the transcript, usage added). */
  withAssistant(
    message: AssistantMessage,
    next: readonly UserMessage[] = this.next,
    lengthRecoveries = this.lengthRecoveries,
  ): Turn {
    return this.copy({
      assistant: message,
      log: this.log.append(message),
      modelLog: isModelVisible(message) ? this.modelLog.append(message) : this.modelLog,
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
    return this.copy({
      toolResults: results,
      usage,
      log: this.log.append(...results),
      modelLog: this.modelLog.append(...results),
      toolErrors,
    });
  }

  /**
   * What the operator `name` keeps for the rest of the run (a retry count, warnings given), as
   * it last stored it with `withOperatorState`; undefined at first. Values are plain JSON, so a
   * snapshot of the turn carries them.
   *
   * @example
   * const retries = turn.operatorState<number>('myRetry') ?? 0;
   */
  operatorState<T>(name: string): T | undefined {
    return this.operators[name] as T | undefined;
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

  /** The tools the model is offered this turn: the run's, unless `withTools` changed them. */
  get tools(): ReadonlyMap<string, AnyTool> {
    return this.toolSet?.tools ?? this.run.tools;
  }

  /** The tools as the model sees them this turn. */
  get toolSpecs(): readonly ToolSpec[] {
    return this.toolSet?.specs ?? this.run.toolSpecs;
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

  /** @internal This turn's step as a `StepResult` (needs the model's message). */
  stepResult(): StepResult | undefined {
    const message = this.assistant;
    if (!message) return undefined;
    return {
      step: this.step,
      message,
      toolCalls: message.content.filter((p) => p.type === 'tool-call'),
      toolResults: [...(this.toolResults ?? [])],
      usage: message.usage ?? emptyUsage(),
      finishReason: message.stopReason,
    };
  }

  /** @internal The next turn: this one's transcript and steps, with `input` appended. */
  nextTurn(step: StepResult, input: readonly AgentMessage[]): Turn {
    return new Turn({
      run: this.run,
      step: this.step + 1,
      log: this.log.append(...input),
      modelLog: this.modelLog.append(...input.filter(isModelVisible)),
      stepLog: this.stepLog.append(step),
      usage: this.usage,
      next: [],
      steering: this.steering,
      followUps: this.followUps,
      guards: this.guards,
      toolGuardrails: this.toolGuardrails,
      toolErrors: this.toolErrors,
      lengthRecoveries: this.lengthRecoveries,
      toolSet: this.toolSet,
      operators: this.operators,
    });
  }

  /** @internal This turn with messages appended (a closed batch, an abort marker). */
  appended(messages: readonly AgentMessage[]): Turn {
    return this.copy({
      log: this.log.append(...messages),
      modelLog: this.modelLog.append(...messages.filter(isModelVisible)),
    });
  }

  private copy(changes: Partial<TurnFields>): Turn {
    return new Turn({
      run: this.run,
      step: this.step,
      log: this.log,
      modelLog: this.modelLog,
      stepLog: this.stepLog,
      usage: this.usage,
      context: this.context,
      recoverOverflow: this.recoverOverflow,
      assistant: this.assistant,
      toolResults: this.toolResults,
      stop: this.stop,
      next: this.next,
      steering: this.steering,
      followUps: this.followUps,
      guards: this.guards,
      toolGuardrails: this.toolGuardrails,
      toolErrors: this.toolErrors,
      lengthRecoveries: this.lengthRecoveries,
      toolSet: this.toolSet,
      output: this.output,
      operators: this.operators,
      ...changes,
    });
  }
}

// On the prototype: a spread copy of a turn is not a turn (the loop refuses it as corrupted).
Object.defineProperty(Turn.prototype, TURN, { value: true });
