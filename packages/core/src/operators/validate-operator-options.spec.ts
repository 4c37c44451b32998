import { AgentConfigError } from '../errors/agent-errors.js';
import { validateExecuteToolsOptions, validateLlmStepOptions } from './validate-operator-options.js';

function errorOf(check: () => void): Error | undefined {
  try {
    check();
    return undefined;
  } catch (error) {
    return error as Error;
  }
}

describe('validateExecuteToolsOptions', () => {
  it.each<[Record<string, unknown>, string]>([
    [
      { concurrency: 0 },
      'executeTools.concurrency: received 0; expected an integer >= 1, or Infinity for no limit',
    ],
    [{ concurrency: 1.5 }, 'executeTools.concurrency: received 1.5; expected an integer >= 1'],
    [{ concurrency: '3' }, 'executeTools.concurrency: received "3" (a string)'],
    [
      { timeoutMs: 0 },
      'executeTools.timeoutMs: received 0; expected a number > 0, or Infinity for no timeout',
    ],
    [{ timeoutMs: NaN }, 'executeTools.timeoutMs: received NaN'],
    [
      { maxToolErrors: -1 },
      'executeTools.maxToolErrors: received -1; expected an integer >= 0 (0 never disables a tool)',
    ],
    [{ maxToolErrors: Infinity }, 'executeTools.maxToolErrors: received Infinity'],
    [{ approver: 'yes' }, 'executeTools.approver: received "yes" (a string); expected a function'],
    [{ approvalRequired: [3] }, 'executeTools.approvalRequired[0]: received 3; expected a string'],
  ])('refuses %p', (options, message) => {
    const error = errorOf(() => validateExecuteToolsOptions(options));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toContain(`Invalid option ${message}`);
  });

  it('accepts the defaults and in-range values, Infinity where it means no limit', () => {
    expect(errorOf(() => validateExecuteToolsOptions(undefined))).toBeUndefined();
    expect(errorOf(() => validateExecuteToolsOptions({}))).toBeUndefined();
    const options = { concurrency: Infinity, timeoutMs: Infinity, maxToolErrors: 0, approver: () => true };
    expect(errorOf(() => validateExecuteToolsOptions(options))).toBeUndefined();
  });

  it('refuses options that are not an object', () => {
    const error = errorOf(() => validateExecuteToolsOptions(4 as never));
    expect(error?.message).toBe(
      'Invalid option executeTools options: received 4; expected an options object.',
    );
  });
});

describe('validateLlmStepOptions', () => {
  it.each<[Record<string, unknown>, string]>([
    [{ maxRetries: -1 }, 'llmStep.maxRetries: received -1; expected an integer >= 0'],
    [{ maxRetries: Infinity }, 'llmStep.maxRetries: received Infinity'],
    [{ maxRetries: '3' }, 'llmStep.maxRetries: received "3" (a string)'],
    [
      { retryBackoff: { jitter: 2 } },
      'llmStep.retryBackoff.jitter: received 2; expected a number from 0 to 1',
    ],
    [
      { retryBackoff: { initialDelayMs: Infinity } },
      'llmStep.retryBackoff.initialDelayMs: received Infinity',
    ],
    [{ retryBackoff: { maxDelayMs: NaN } }, 'llmStep.retryBackoff.maxDelayMs: received NaN'],
    [{ retryBackoff: 'fast' }, 'llmStep.retryBackoff: received "fast" (a string); expected an object'],
    [{ request: { maxTokens: 0 } }, 'llmStep.request.maxTokens: received 0; expected an integer >= 1'],
    [
      { request: { temperature: -0.5 } },
      'llmStep.request.temperature: received -0.5; expected a number >= 0',
    ],
  ])('refuses %p', (options, message) => {
    const error = errorOf(() => validateLlmStepOptions(options));
    expect(AgentConfigError.isInstance(error)).toBe(true);
    expect(error?.message).toContain(`Invalid option ${message}`);
  });

  it('accepts the defaults and in-range values', () => {
    expect(errorOf(() => validateLlmStepOptions(undefined))).toBeUndefined();
    const options = {
      maxRetries: 0,
      retryBackoff: { initialDelayMs: 0, maxDelayMs: Infinity, jitter: 1 },
      request: { maxTokens: 1, temperature: 0 },
    };
    expect(errorOf(() => validateLlmStepOptions(options))).toBeUndefined();
  });
});
