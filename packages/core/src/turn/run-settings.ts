import type { PriceTable } from '../cost/model-price.js';
import type { GuardrailTripMode } from '../guardrails/guardrail-config.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { ChatRequest } from '../model/chat-model.js';
import type { ToolScope, ToolScopeCall } from '../tools/tool-scope.js';
import type { Elicitor } from '../elicitation/elicitation-types.js';
import type { RunInstrument } from './run-instrument.js';
import type { Approver, ToolGate, ToolMiddleware } from '../tools/tool-hooks.js';
import { MODEL_CALL_OPTIONS, type RetryBackoff, type RunAgentConfig } from './run-config.js';
import type { StopCondition } from '../stop/stop-condition.js';
import { runStopConditions } from '../stop/run-stop-conditions.js';
import { isUsageBudget } from '../stop/usage-budget.js';

/**
 * How a run's tool calls run, unless `executeTools` options say otherwise.
 *
 * @example
 * const concurrency = options.concurrency ?? turn.run.settings.tools.concurrency;
 */
export interface ToolSettings {
  /** Calls running at once (config `toolConcurrency`, default 8). */
  readonly concurrency: number;
  /** Per-call timeout (config `toolTimeoutMs`, default 30 000 ms). */
  readonly timeoutMs: number;
  /** Consecutive failures that disable a tool (config `maxToolErrors`, default 3). */
  readonly maxToolErrors: number;
  readonly approvalRequired: readonly string[];
  readonly approver?: Approver;
  /** Answers the elicitations tools make (config `elicit`). */
  readonly elicit?: Elicitor;
  readonly toolGate?: ToolGate;
  readonly middlewares: readonly ToolMiddleware[];
  /** The config's `toolGuardrails`. */
  readonly guardrails: readonly ToolGuardrail[];
  /** The run instrument's scope around each execution. */
  readonly toolScope?: ToolScope;
}

/**
 * A run's settings with their defaults resolved, read once from its config: what operators
 * use when their own options leave something out. (Operators never read the config itself.)
 *
 * @example
 * const maxRetries = options.maxRetries ?? turn.run.settings.maxRetries;
 */
export interface RunSettings {
  /** What every model call sends besides its messages and tools: the system prompt and call options. */
  readonly request: Readonly<Omit<ChatRequest, 'messages' | 'tools'>>;
  /** Retries of a retryable model failure (default 3). */
  readonly maxRetries: number;
  readonly retryBackoff?: RetryBackoff;
  /** Random numbers for jitter (default Math.random). */
  readonly random?: () => number;
  /** Output-length recoveries per run (default 3). */
  readonly maxLengthRecoveries: number;
  readonly prices?: PriceTable;
  /** What a guardrail trip does (default `'stop'`). */
  readonly onGuardrailTrip: GuardrailTripMode;
  readonly tools: ToolSettings;
  /**
   * The run's budgets (`tokenBudget`, `costBudget`, `maxBudgetUsd` among its stop conditions):
   * checked while a step's calls run, each time a sub-run or a tool spends.
   */
  readonly budgets: readonly StopCondition[];
}

/** The instrument's `toolScope`, called on the instrument. */
function boundScope(instrument: RunInstrument): ToolScope {
  return <T>(call: ToolScopeCall, execute: () => T): T => instrument.toolScope?.(call, execute) as T;
}

const NONE: readonly never[] = Object.freeze([]);
const NO_REQUEST_OPTIONS: Omit<ChatRequest, 'messages' | 'tools'> = Object.freeze({});

// A run that sets none of these shares the defaults (a pending run holds its settings).
const DEFAULT_TOOLS: ToolSettings = Object.freeze({
  concurrency: 8,
  timeoutMs: 30_000,
  maxToolErrors: 3,
  approvalRequired: NONE,
  middlewares: NONE,
  guardrails: NONE,
});
const DEFAULT_SETTINGS: RunSettings = Object.freeze({
  request: NO_REQUEST_OPTIONS,
  maxRetries: 3,
  maxLengthRecoveries: 3,
  onGuardrailTrip: 'stop',
  tools: DEFAULT_TOOLS,
  budgets: NONE,
});

function usesDefaultTools(config: RunAgentConfig): boolean {
  return (
    config.toolConcurrency === undefined &&
    config.toolTimeoutMs === undefined &&
    config.maxToolErrors === undefined &&
    config.approvalRequired === undefined &&
    config.middlewares === undefined &&
    config.toolGuardrails === undefined &&
    !config.approver &&
    !config.elicit &&
    !config.toolGate &&
    !config.instrument?.toolScope
  );
}

function usesDefaultRetries(config: RunAgentConfig): boolean {
  return (
    config.maxRetries === undefined &&
    config.maxLengthRecoveries === undefined &&
    config.onGuardrailTrip === undefined &&
    !config.retryBackoff &&
    !config.random &&
    !config.prices
  );
}

/**
 * The settings of a run with this config (defaults resolved).
 *
 * @example
 * const settings = runSettings({ model, maxRetries: 1 }); // settings.tools.concurrency === 8
 */
export function runSettings(config: RunAgentConfig): RunSettings {
  let request: Omit<ChatRequest, 'messages' | 'tools'> = {};
  if (config.system !== undefined) request.system = config.system;
  for (const key of MODEL_CALL_OPTIONS) {
    if (config[key] !== undefined) Object.assign(request, { [key]: config[key] });
  }
  const instrument = config.instrument;
  const tools: ToolSettings = usesDefaultTools(config)
    ? DEFAULT_TOOLS
    : {
        concurrency: config.toolConcurrency ?? 8,
        timeoutMs: config.toolTimeoutMs ?? 30_000,
        maxToolErrors: config.maxToolErrors ?? 3,
        approvalRequired: config.approvalRequired ?? NONE,
        middlewares: config.middlewares ?? NONE,
        guardrails: config.toolGuardrails ?? NONE,
        ...(config.approver ? { approver: config.approver } : {}),
        ...(config.elicit ? { elicit: config.elicit } : {}),
        ...(config.toolGate ? { toolGate: config.toolGate } : {}),
        ...(instrument?.toolScope ? { toolScope: boundScope(instrument) } : {}),
      };
  // A run that sets nothing shares one empty request and list (a pending run holds its settings).
  request = Object.keys(request).length === 0 ? NO_REQUEST_OPTIONS : Object.freeze(request);
  const budgets = runStopConditions(config).filter(isUsageBudget);
  if (
    request === NO_REQUEST_OPTIONS &&
    tools === DEFAULT_TOOLS &&
    budgets.length === 0 &&
    usesDefaultRetries(config)
  ) {
    return DEFAULT_SETTINGS;
  }
  const settings: RunSettings = {
    request,
    maxRetries: config.maxRetries ?? 3,
    maxLengthRecoveries: config.maxLengthRecoveries ?? 3,
    onGuardrailTrip: config.onGuardrailTrip ?? 'stop',
    tools,
    budgets: budgets.length === 0 ? NONE : budgets,
    ...(config.retryBackoff ? { retryBackoff: config.retryBackoff } : {}),
    ...(config.random ? { random: config.random } : {}),
    ...(config.prices ? { prices: config.prices } : {}),
  };
  return settings;
}
