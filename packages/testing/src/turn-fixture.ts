import { asyncScheduler, Subscription, throwError, type Observable, type SchedulerLike } from 'rxjs';
import {
  emptyUsage,
  MessageQueue,
  Turn,
  userMessage,
  type AgentMessage,
  type AnyTool,
  type AssistantMessage,
  type ChatModel,
  type RunAgentConfig,
  type RunFacts,
  type StepResult,
  type StopSignal,
  type ToolResultMessage,
  type UserInput,
} from '@rxagent/core';
import type { StartedSource } from '@rxagent/core/provider';
import { runLineage, runRequirements, runSettings, toToolSpec, type ToolSpec } from '@rxagent/core/provider';

/**
 * Options of `testRunFacts`: the run a fixture turn belongs to.
 *
 * @example
 * const options: TestRunFactsOptions = { model, tools: [weather], config: { maxRetries: 1 } };
 */
export interface TestRunFactsOptions {
  /** The run's model (default: a model that fails the call, for operators that never call one). */
  model?: ChatModel;
  tools?: readonly AnyTool[];
  /**
   * Where the run's time goes (default `asyncScheduler`, which runs in virtual time inside
   * `TestScheduler.run`).
   */
  scheduler?: SchedulerLike;
  /** More `RunAgentConfig` keys (`maxRetries`, `retryBackoff`, `random`, `system`, …). */
  config?: Partial<RunAgentConfig>;
  /** Default `'test-run'` (or `config.runId`). */
  runId?: string;
  /** How many messages the run started from (`aTurn`: default all of its `messages`; else 0). */
  priorLength?: number;
}

/**
 * The facts of a test run, with what a real run does when it ends done by hand: `abort()`
 * aborts the run's signal, `close()` unsubscribes the sources `attach` subscribed.
 *
 * @example
 * const run = testRunFacts({ tools: [weather] });
 * const turn = aTurn({ run });
 * run.close(); // unsubscribes what steer()/followUp() attached
 */
export interface TestRunFacts extends RunFacts {
  /** Messages of the `warning`s a real run would emit (a failed attached source). */
  readonly warnings: string[];
  /** Aborts the run's `signal`, as an aborted or unsubscribed run does. */
  abort(reason?: unknown): void;
  /** Unsubscribes every source `attach` subscribed, as the end of a run does. */
  close(): void;
}

/**
 * The default model of a fixture turn: the operators that do not call a model never touch
 * it, and a call fails with a message saying to pass one.
 */
const noModel: ChatModel = {
  provider: 'fixture',
  modelId: 'no-model',
  stream: () =>
    throwError(
      () => new Error('aTurn() was given no model: pass { model } (e.g. a marbleModel) to call one.'),
    ),
};

function toolMap(tools: readonly AnyTool[]): ReadonlyMap<string, AnyTool> {
  const map = new Map<string, AnyTool>();
  for (const tool of tools) {
    if (map.has(tool.name)) throw new Error(`testRunFacts: two tools are named "${tool.name}".`);
    map.set(tool.name, tool);
  }
  return map;
}

/**
 * The facts of a run for fixture turns (what `runAgent` makes when it is subscribed): run id
 * `'test-run'`, the tools and their specs, the scheduler, an abort signal, and `attach`, which
 * subscribes a message source once into a `MessageQueue`. Share one between turns with
 * `aTurn({ run })`.
 *
 * @param options The model, tools, scheduler and config of the run.
 * @return The run's facts.
 *
 * @example
 * const run = testRunFacts({ model, tools: [weather] });
 * const first = aTurn({ run });
 * const third = aTurn({ run, step: 3 });
 */
export function testRunFacts(options: TestRunFactsOptions = {}): TestRunFacts {
  const extra = options.config ?? {};
  const model = options.model ?? extra.model ?? noModel;
  const toolList = options.tools ?? extra.tools ?? [];
  const scheduler = options.scheduler ?? extra.scheduler ?? asyncScheduler;
  const tools = toolMap(toolList);
  const toolSpecs: readonly ToolSpec[] = Object.freeze(toolList.map(toToolSpec));
  const config: RunAgentConfig = { ...extra, model, tools: toolList, scheduler };
  const cancel = new AbortController();
  const sources = new Map<Observable<UserInput>, MessageQueue>();
  const subscriptions = new Subscription();
  const warnings: string[] = [];
  return {
    runId: options.runId ?? extra.runId ?? 'test-run',
    settings: runSettings(config),
    lineage: runLineage(options.runId ?? extra.runId ?? 'test-run', extra.lineage),
    requires: runRequirements(config),
    model,
    tools,
    toolSpecs,
    scheduler,
    signal: cancel.signal,
    startedAt: scheduler.now(),
    priorLength: options.priorLength ?? 0,
    warnings,
    attach(source: Observable<UserInput> | MessageQueue, started?: StartedSource): MessageQueue {
      if (source instanceof MessageQueue) return source;
      const known = sources.get(source);
      if (known) {
        started?.subscription.unsubscribe();
        return known;
      }
      if (started) {
        sources.set(source, started.queue);
        subscriptions.add(() => started.subscription.unsubscribe());
        return started.queue;
      }
      const queue = new MessageQueue();
      sources.set(source, queue);
      subscriptions.add(
        source.subscribe({
          next: (message) => queue.push(message),
          error: (error: unknown) =>
            warnings.push(
              `A message source of the run failed and was detached: ${error instanceof Error ? error.message : String(error)}`,
            ),
        }),
      );
      return queue;
    },
    abort(reason?: unknown): void {
      cancel.abort(reason);
    },
    warn(message: string): void {
      warnings.push(message);
    },
    close(): void {
      subscriptions.unsubscribe();
    },
  };
}

/**
 * Options of `aTurn`: the run (or the options to make one) and the turn's own fields.
 *
 * @example
 * const options: ATurnOptions = { model, messages: [userMessage('What is 2 + 2?')], step: 2 };
 */
export interface ATurnOptions extends TestRunFactsOptions {
  /**
   * The run the turn belongs to (default: `testRunFacts(options)`). The run's own options
   * (`model`, `tools`, `scheduler`, `config`, `runId`, `priorLength`) are refused next to it.
   */
  run?: RunFacts;
  /** The transcript so far (default `[userMessage('hi')]`). */
  messages?: readonly AgentMessage[];
  /** The turn's step, 1-based (default 1); the steps before it are placeholder text answers. */
  step?: number;
  /** The model's message of this turn (attached with `withAssistant`). */
  assistant?: AssistantMessage;
  /** The results of this turn's calls (attached with `withToolResults`, after `assistant`). */
  toolResults?: readonly ToolResultMessage[];
  /** Ends the run after this turn (attached with `withStop`). */
  stop?: StopSignal;
}

/** The options that make a run: refused next to `{ run }` (they would be ignored). */
const RUN_OPTIONS = ['model', 'tools', 'scheduler', 'config', 'runId', 'priorLength'] as const;

function placeholderStep(step: number): StepResult {
  const usage = emptyUsage();
  const message: AssistantMessage = {
    role: 'assistant',
    content: [{ type: 'text', text: `(step ${step})` }],
    stopReason: 'tool-calls',
    usage,
    provider: 'fixture',
    model: 'no-model',
    timestamp: 0,
  };
  return { step, message, toolCalls: [], toolResults: [], usage, finishReason: 'tool-calls' };
}

/**
 * A real `Turn` to feed one operator alone, as the loop would: by default step 1 of a run
 * `'test-run'` over `[userMessage('hi')]`, with no tools and a model that fails if called.
 * Give it the model, tools and transcript the operator needs, and what the operators before
 * it would have added (`assistant`, `toolResults`, `stop`). Inside `TestScheduler.run` its
 * time is virtual.
 *
 * @param options The run and the turn's fields.
 * @return A turn.
 *
 * @example
 * testScheduler.run(({ cold, expectObservable }) => {
 *   const turn = aTurn({ assistant: assistantMessage([{ type: 'text', text: 'Done.' }]) });
 *   const e1 = cold('-t|', { t: turn });
 *   const stopReason = map((item: LoopItem) => (isTurn(item) ? item.stop?.reason : item.type));
 *   expectObservable(e1.pipe(stopWhen(stepCountIs(1)), stopReason)).toBe('-s|', { s: 'steps-limit' });
 * });
 */
export function aTurn(options: ATurnOptions = {}): Turn {
  const messages = options.messages ?? [userMessage('hi')];
  if (options.run) {
    const ignored = RUN_OPTIONS.filter((key) => options[key] !== undefined);
    if (ignored.length > 0) {
      throw new Error(`aTurn: pass ${ignored.join(', ')} to testRunFacts(), not next to { run }.`);
    }
  }
  const run =
    options.run ?? testRunFacts({ ...options, priorLength: options.priorLength ?? messages.length });
  const step = options.step ?? 1;
  if (!Number.isInteger(step) || step < 1) {
    throw new Error(`aTurn: step must be an integer >= 1, got ${step}.`);
  }
  let turn = Turn.first(run, messages, []);
  for (let i = 1; i < step; i++) turn = turn.nextTurn(placeholderStep(i), []);
  if (options.assistant) turn = turn.withAssistant(options.assistant);
  if (options.toolResults) turn = turn.withToolResults(options.toolResults);
  if (options.stop) turn = turn.withStop(options.stop);
  return turn;
}
