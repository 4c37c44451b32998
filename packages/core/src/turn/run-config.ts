import type { Observable, SchedulerLike } from 'rxjs';
import type { ContextManager } from '../context/context-manager.js';
import type { PriceTable } from '../cost/model-price.js';
import type { OutputMode } from '../output/output-mode.js';
import type { OutputSchema } from '../output/output-schema.js';
import type { AgentMessage } from '../messages/types.js';
import type { ChatModel, ChatRequest, SystemBlock } from '../model/chat-model.js';
import type { GuardrailConfig } from '../guardrails/guardrail-config.js';
import type { StopCondition, StopGuard } from '../stop/stop-condition.js';
import type { AnyTool } from '../tools/tool.js';
import type { Approver, ToolGate, ToolMiddleware } from '../tools/tool-hooks.js';
import type { LoopItem } from './loop-item.js';
import type { RunInstrument } from './run-instrument.js';
import type { Elicitor } from '../elicitation/elicitation-types.js';
import type { MessageQueue, UserInput } from './message-queue.js';
import type { RunLineage } from '../tools/run-lineage.js';
import type { RunSnapshot } from './run-snapshot.js';

/**
 * Backoff between retries of a failed model call.
 *
 * @example
 * runAgent({ model, prompt, maxRetries: 5, retryBackoff: { initialDelayMs: 500, maxDelayMs: 10_000, jitter: 0 } });
 */
export interface RetryBackoff {
  /** First delay (doubles each attempt). Default 1000 ms. */
  initialDelayMs?: number;
  /** Cap of any delay, retry-after included. Default 60 000 ms. */
  maxDelayMs?: number;
  /** Random reduction of each computed delay, 0 to 1. Default 0.2 (delays of 80–100 %). */
  jitter?: number;
}

/**
 * The loop body, applied once per turn to a one-turn source (the turn's opening events, then
 * the `Turn`); it must emit events and exactly one turn, then complete. The default is
 * `compactContext → llmStep → executeTools → stopWhen` built from the config.
 *
 * @example
 * const pipeline: Pipeline = (turn$) => turn$.pipe(llmStep(), executeTools({ concurrency: 2 }), stopWhen(stepCountIs(4)));
 */
export type Pipeline = (turn$: Observable<LoopItem>) => Observable<LoopItem>;

/** The request options a run passes on to every model call. */
export const MODEL_CALL_OPTIONS = [
  'toolChoice',
  'maxTokens',
  'temperature',
  'thinking',
  'responseFormat',
  'cacheControl',
  'providerOptions',
] as const;

/**
 * Request options passed on to every model call of the run (see `ChatRequest`).
 *
 * @example
 * const options: ModelCallOptions = { maxTokens: 1024, temperature: 0, thinking: 'low', toolChoice: 'auto' };
 */
export type ModelCallOptions = Pick<ChatRequest, (typeof MODEL_CALL_OPTIONS)[number]>;

/**
 * Everything `runAgent` takes. Only `model` is required.
 *
 * @example
 * const config: RunAgentConfig = { model, system: 'Be brief.', prompt: 'Hi', tools: [weather], maxSteps: 5 };
 */
export interface RunAgentConfig extends ModelCallOptions, GuardrailConfig {
  model: ChatModel;
  /** The new input of this run: text, a message or messages. */
  prompt?: UserInput | AgentMessage | AgentMessage[];
  /** The transcript so far (repaired if it has dangling tool calls). */
  messages?: readonly AgentMessage[];
  system?: string | SystemBlock[];
  tools?: readonly AnyTool[];
  /** Model calls at most (default 10); reaching it ends with `steps-limit`. */
  maxSteps?: number;
  /**
   * Stop predicates, evaluated after each step's tools; any true stops. Budgets among them
   * (`tokenBudget`, `costBudget`) are also checked while the calls run, as sub-runs spend.
   */
  stopWhen?: StopCondition | readonly StopCondition[];
  /**
   * The most the run may cost in US dollars, its sub-runs' spending included (as the Claude
   * Agent SDK's `maxBudgetUsd`): sugar for `costBudget(usd)` in `stopWhen`, ending with
   * `token-limit` (source `maxBudgetUsd`). Needs the model's price (built in, or `prices`).
   */
  maxBudgetUsd?: number;
  /** Consulted when the model would stop by itself. */
  guardStop?: StopGuard;
  /** Aborting ends the run with the abort marker and `agent-end { reason: 'user-requested' }`. */
  signal?: AbortSignal;
  /** Where all time goes (timeouts, backoff, budgets). Default `asyncScheduler`. */
  scheduler?: SchedulerLike;
  /** Retries of a retryable model failure (default 3). */
  maxRetries?: number;
  retryBackoff?: RetryBackoff;
  /** Random numbers for jitter (default Math.random); fix it in tests. */
  random?: () => number;
  /** Tool calls running at once (default 8). */
  toolConcurrency?: number;
  /** Per-call timeout (default 30 000 ms); a tool's `timeoutMs` wins. */
  toolTimeoutMs?: number;
  /** Consecutive failures of one tool that disable it for the rest of the run (default 3). */
  maxToolErrors?: number;
  /** Tool names that always need approval. */
  approvalRequired?: readonly string[];
  approver?: Approver;
  /** Answers the elicitations tools make (MCP servers asking a person); without it they are declined. */
  elicit?: Elicitor;
  toolGate?: ToolGate;
  middlewares?: readonly ToolMiddleware[];
  /** Messages to deliver mid-run (see `steer`). */
  steering$?: Observable<UserInput> | MessageQueue;
  /** `'interrupt'` (default) skips calls not started when a message arrives; `'after-turn'` waits. */
  steeringMode?: 'interrupt' | 'after-turn';
  /** Messages delivered only when the run would otherwise stop. */
  followUp$?: Observable<UserInput> | MessageQueue;
  contextManager?: ContextManager;
  /** Output-length recoveries per run (default 3). */
  maxLengthRecoveries?: number;
  /** Replaces the default loop body (`stopWhen` is still honoured after it; `contextManager` is refused). */
  pipeline?: Pipeline;
  /**
   * Called with a snapshot of each turn as it leaves the pipeline (its step done, before the run
   * decides what follows), as plain JSON: keep the last one to continue the run later, in any
   * process, with `resumeRun`. (Each snapshot copies the transcript: for long runs keep the last.)
   */
  onSnapshot?: (snapshot: RunSnapshot) => void;
  /** The run's id (default a random UUID). */
  runId?: string;
  /**
   * Set by a tool that runs an agent of its own: its `ctx.lineage`, so the sub-run knows its
   * depth and counts against its top-level run's sub-run limit. Leave it out otherwise.
   */
  lineage?: RunLineage;
  /** Tracing or metrics around the run's events and each tool's execution (e.g. `traceRun()`). */
  instrument?: RunInstrument;
  /** Prices to add to or override the built-in table (fills `usage.costUsd`). */
  prices?: PriceTable;
  /** The shape of the final answer (zod or JSON Schema): validated, retried, typed on `agent-end`. */
  output?: OutputSchema;
  /** How the answer is asked for: the provider's JSON-schema mode, a `final_answer` tool, or `'auto'`. */
  outputMode?: OutputMode;
  /** Invalid answers sent back for another try before `StructuredOutputError` (default 2). */
  maxOutputRetries?: number;
}
