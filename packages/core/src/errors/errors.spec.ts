import { AgentBusyError, RetriesExhaustedError } from './agent-errors.js';
import { AgentStop } from './agent-stop.js';
import { isRetryableStatus, ProviderError } from './provider-error.js';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  RateLimitError,
} from './provider-errors.js';
import { RxAgentError } from './rxagent-error.js';
import { serializeError } from './serialize-error.js';

describe('typed errors', () => {
  it('isInstance follows the class hierarchy and works without instanceof', () => {
    const limited = new RateLimitError('slow down', { retryAfterMs: 500 });
    expect(RateLimitError.isInstance(limited)).toBe(true);
    expect(ProviderError.isInstance(limited)).toBe(true);
    expect(RxAgentError.isInstance(limited)).toBe(true);
    expect(AuthError.isInstance(limited)).toBe(false);
    // A copy from another package instance: same marker, different prototype.
    const foreign = Object.assign(Object.create(Error.prototype) as object, limited);
    Object.defineProperty(foreign, Symbol.for('rxagent.error.kinds'), {
      value: ['RateLimitError', 'ProviderError', 'RxAgentError'],
    });
    expect(RateLimitError.isInstance(foreign)).toBe(true);
    expect(RateLimitError.isInstance(new Error('x'))).toBe(false);
    expect(RateLimitError.isInstance(null)).toBe(false);
  });

  it('names each class and says what is retryable', () => {
    expect(new RateLimitError('x').name).toBe('RateLimitError');
    expect(new RateLimitError('x').retryable).toBe(true);
    expect(new OverloadedError('x').retryable).toBe(true);
    expect(new NetworkError('x').retryable).toBe(true);
    expect(new PartialStreamError('x').retryable).toBe(true);
    expect(new AuthError('x').retryable).toBe(false);
    expect(new ContextOverflowError('x').retryable).toBe(false);
    expect(new ProviderError('x', { status: 503 }).retryable).toBe(true);
    expect(new ProviderError('x', { status: 400 }).retryable).toBe(false);
    expect(new ProviderError('x', { status: 503, retryable: false }).retryable).toBe(false); // x-should-retry: false
    expect([408, 409, 429, 500, 529].map(isRetryableStatus)).toEqual([true, true, true, true, true]);
    expect([400, 401, 404, undefined].map(isRetryableStatus)).toEqual([false, false, false, false]);
  });

  it('serializes to JSON without body, cause or stack', () => {
    const e = new RateLimitError('slow down', {
      status: 429,
      code: 'rate_limit_exceeded',
      retryAfterMs: 2000,
      body: { secret: 'sk-x' },
    });
    expect(serializeError(e)).toEqual({
      name: 'RateLimitError',
      message: 'slow down',
      status: 429,
      code: 'rate_limit_exceeded',
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(serializeError('plain')).toEqual({ name: 'Error', message: 'plain' });
  });

  it('carries what to fix in its message', () => {
    const exhausted = new RetriesExhaustedError(4, [
      new NetworkError('reset'),
      new NetworkError('reset again'),
    ]);
    expect(exhausted.message).toBe(
      'Model call failed after 4 attempts: reset again. Check the provider status, or raise maxRetries.',
    );
    expect(exhausted.lastError).toBeInstanceOf(NetworkError);
    expect(new AgentBusyError().message).toMatch(/steer\(\) or followUp\(\)/);
    expect(new AgentStop('done').reason).toBe('done');
  });
});
