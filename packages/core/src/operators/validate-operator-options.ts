import type { ExecuteToolsOptions } from './execute-tools.js';
import type { LlmStepOptions } from './llm-step.js';
import { checkNumber, invalidOption } from '../config/check-number.js';
import {
  checkRequestNumbers,
  checkRetryBackoff,
  checkToolHooks,
  OPTION_RULES,
} from '../config/option-rules.js';

function asOptions(key: string, value: unknown): Record<string, unknown> {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(key, value, 'an options object');
  }
  return value as Record<string, unknown>;
}

/**
 * Checks the options of `executeTools` (same ranges as the run's `toolConcurrency`,
 * `toolTimeoutMs`, `maxToolErrors`); throws an `AgentConfigError` naming the key
 * (`executeTools.concurrency`, …), the value received and what is accepted.
 *
 * @param options The operator's options (undefined = all defaults).
 *
 * @example
 * validateExecuteToolsOptions({ concurrency: 0 });
 * // AgentConfigError: Invalid option executeTools.concurrency: received 0; expected an integer >= 1, or Infinity for no limit.
 */
export function validateExecuteToolsOptions(options: ExecuteToolsOptions | undefined): void {
  const o = asOptions('executeTools options', options);
  checkNumber('executeTools.concurrency', o.concurrency, OPTION_RULES.concurrency);
  checkNumber('executeTools.timeoutMs', o.timeoutMs, OPTION_RULES.timeoutMs);
  checkNumber('executeTools.maxToolErrors', o.maxToolErrors, OPTION_RULES.maxToolErrors);
  checkToolHooks('executeTools.', o);
}

/**
 * Checks the options of `llmStep` (`maxRetries`, `retryBackoff`, the request's `maxTokens` and
 * `temperature`); throws an `AgentConfigError` naming the key (`llmStep.maxRetries`, …), the
 * value received and what is accepted.
 *
 * @param options The operator's options (undefined = all defaults).
 *
 * @example
 * validateLlmStepOptions({ retryBackoff: { jitter: 2 } });
 * // AgentConfigError: Invalid option llmStep.retryBackoff.jitter: received 2; expected a number from 0 to 1.
 */
export function validateLlmStepOptions(options: LlmStepOptions | undefined): void {
  const o = asOptions('llmStep options', options);
  checkNumber('llmStep.maxRetries', o.maxRetries, OPTION_RULES.maxRetries);
  checkRetryBackoff('llmStep.retryBackoff', o.retryBackoff);
  checkRequestNumbers('llmStep.request.', asOptions('llmStep.request', o.request));
}
