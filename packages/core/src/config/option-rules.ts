import { checkNumber, invalidOption, type NumberRule } from './check-number.js';
import { checkArray, checkFunction, checkString } from './check-shape.js';

/**
 * The accepted range of every numeric option, shared by `runAgent`, `llmStep` and `executeTools`.
 *
 * @example
 * checkNumber('executeTools.concurrency', options.concurrency, OPTION_RULES.concurrency);
 */
export const OPTION_RULES = {
  maxSteps: { integer: true, min: 1, infinity: 'no limit' },
  maxRetries: { integer: true, min: 0 },
  maxLengthRecoveries: { integer: true, min: 0 },
  concurrency: { integer: true, min: 1, infinity: 'no limit' },
  timeoutMs: { min: 0, exclusiveMin: true, infinity: 'no timeout' },
  maxToolErrors: { integer: true, min: 0, note: '0 never disables a tool' },
  initialDelayMs: { min: 0 },
  maxDelayMs: { min: 0, infinity: 'no cap' },
  jitter: { min: 0, max: 1 },
  maxTokens: { integer: true, min: 1 },
  temperature: { min: 0 },
} as const satisfies Record<string, NumberRule>;

/**
 * Checks an optional `retryBackoff` object and its three delays.
 *
 * @example
 * checkRetryBackoff('llmStep.retryBackoff', options.retryBackoff);
 */
export function checkRetryBackoff(key: string, value: unknown): void {
  if (value === undefined) return;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidOption(key, value, 'an object { initialDelayMs?, maxDelayMs?, jitter? }');
  }
  const backoff = value as Record<string, unknown>;
  checkNumber(`${key}.initialDelayMs`, backoff.initialDelayMs, OPTION_RULES.initialDelayMs);
  checkNumber(`${key}.maxDelayMs`, backoff.maxDelayMs, OPTION_RULES.maxDelayMs);
  checkNumber(`${key}.jitter`, backoff.jitter, OPTION_RULES.jitter);
}

/**
 * Checks the tool hooks an options object may carry (`approver`, `toolGate`, `middlewares`,
 * `approvalRequired`), each key prefixed with `prefix`.
 *
 * @example
 * checkToolHooks('executeTools.', options);
 */
export function checkToolHooks(prefix: string, options: Record<string, unknown>): void {
  for (const key of ['approver', 'toolGate'] as const) {
    if (options[key] !== undefined) checkFunction(`${prefix}${key}`, options[key]);
  }
  checkArray(`${prefix}middlewares`, options.middlewares, 'an array of middleware functions', checkFunction);
  checkArray(`${prefix}approvalRequired`, options.approvalRequired, 'an array of tool names', checkString);
}

/**
 * Checks the numeric request options (`maxTokens`, `temperature`), keys prefixed with `prefix`.
 *
 * @example
 * checkRequestNumbers('llmStep.request.', options.request ?? {});
 */
export function checkRequestNumbers(prefix: string, request: Record<string, unknown>): void {
  checkNumber(`${prefix}maxTokens`, request.maxTokens, OPTION_RULES.maxTokens);
  checkNumber(`${prefix}temperature`, request.temperature, OPTION_RULES.temperature);
}
