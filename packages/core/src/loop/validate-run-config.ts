import { checkPrices } from '../cost/check-prices.js';
import { checkMaxBudget } from '../config/check-max-budget.js';
import { AgentConfigError } from '../errors/agent-errors.js';
import type { RunAgentConfig } from '../turn/run-config.js';
import { checkGuardrailConfig } from '../guardrails/check-guardrail-config.js';
import { checkNumber, invalidOption } from '../config/check-number.js';
import { checkArray, checkFunction, checkMethods, checkOneOf } from '../config/check-shape.js';
import {
  checkRequestNumbers,
  checkRetryBackoff,
  checkToolHooks,
  OPTION_RULES,
} from '../config/option-rules.js';
import { checkDeferredTools } from '../tools/deferred-check.js';
import { checkEagerFlag } from '../tools/eager-flag.js';

function checkSignal(value: unknown): void {
  if (value === undefined) return;
  const signal = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const ok = typeof signal.aborted === 'boolean' && typeof signal.addEventListener === 'function';
  if (!ok) throw invalidOption('signal', value, 'an AbortSignal (e.g. new AbortController().signal)');
}

function checkInstrument(value: unknown): void {
  if (value === undefined) return;
  const hooks =
    typeof value === 'object' || typeof value === 'function' ? (value as Record<string, unknown>) : null;
  const ok =
    hooks !== null &&
    ['events', 'toolScope'].every((key) => hooks[key] === undefined || typeof hooks[key] === 'function');
  if (!ok)
    throw invalidOption(
      'instrument',
      value,
      'a RunInstrument: { events?(events$, run), toolScope?(call, execute) }',
    );
}

function checkStopWhen(value: unknown): void {
  if (value === undefined || typeof value === 'function') return;
  checkArray('stopWhen', value, 'a stop condition (a function) or an array of them', checkFunction);
}

function checkTools(value: unknown, approvalRequired: unknown): void {
  checkArray('tools', value, 'an array of tools made with tool({...})');
  if (!Array.isArray(value)) return;
  value.forEach((item: unknown, i) => {
    if (typeof item !== 'object' || item === null) return; // the run names a malformed tool itself
    const { name, timeoutMs } = item as { name?: unknown; timeoutMs?: unknown };
    const label = typeof name === 'string' ? ` (tool "${name.slice(0, 64)}")` : '';
    checkNumber(`tools[${i}].timeoutMs${label}`, timeoutMs, OPTION_RULES.timeoutMs);
  });
  checkDeferredTools(value);
  const required = Array.isArray(approvalRequired) ? approvalRequired : [];
  for (const item of value as unknown[])
    if (typeof item === 'object' && item !== null) checkEagerFlag(item, required as unknown[]);
}

/**
 * Checks every option of a run whose value can be wrong at runtime (numbers, functions,
 * shapes) and throws an `AgentConfigError` naming the key, the value received and what is
 * accepted. `undefined` always means "use the default". NaN, numeric strings and booleans are
 * refused; `Infinity` only where it means something (`maxSteps`, `toolConcurrency`: no
 * limit; `toolTimeoutMs`, a tool's `timeoutMs`: no timeout; `retryBackoff.maxDelayMs`: no cap).
 *
 * @param config The run's configuration, as given by the user.
 *
 * @example
 * validateRunConfig({ model, prompt: 'hi', maxSteps: 0 });
 * // AgentConfigError: Invalid option maxSteps: received 0; expected an integer >= 1, or Infinity for no limit.
 */
export function validateRunConfig(config: RunAgentConfig): void {
  if (typeof config !== 'object' || config === null) {
    throw new AgentConfigError('runAgent needs a config object: pass { model, prompt }.');
  }
  const c = config as unknown as Record<string, unknown>;
  checkNumber('maxSteps', c.maxSteps, OPTION_RULES.maxSteps);
  checkNumber('maxRetries', c.maxRetries, OPTION_RULES.maxRetries);
  checkNumber('toolConcurrency', c.toolConcurrency, OPTION_RULES.concurrency);
  checkNumber('toolTimeoutMs', c.toolTimeoutMs, OPTION_RULES.timeoutMs);
  checkNumber('maxToolErrors', c.maxToolErrors, OPTION_RULES.maxToolErrors);
  checkNumber('maxLengthRecoveries', c.maxLengthRecoveries, OPTION_RULES.maxLengthRecoveries);
  checkRetryBackoff('retryBackoff', c.retryBackoff);
  checkRequestNumbers('', c);
  for (const key of ['random', 'pipeline', 'guardStop', 'elicit'] as const) {
    if (c[key] !== undefined) checkFunction(key, c[key]);
  }
  checkMethods('scheduler', c.scheduler, ['now', 'schedule'], 'an RxJS SchedulerLike');
  checkSignal(c.signal);
  checkInstrument(c.instrument);
  checkStopWhen(c.stopWhen);
  checkOneOf('steeringMode', c.steeringMode, ['interrupt', 'after-turn']);
  checkToolHooks('', c);
  checkTools(c.tools, c.approvalRequired);
  checkPrices(c.prices);
  checkMaxBudget(c.maxBudgetUsd, config.model, config.prices);
  checkGuardrailConfig(c);
}
