import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  InternalServerError,
} from '@anthropic-ai/sdk';
import {
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
} from '@rxagent/core';
import { anthropicStreamError, classifyAnthropicError } from './anthropic-error.js';

const context = { received: false, now: Date.parse('2030-01-01T00:00:00Z') };
const body = (type: string, message: string) => ({ type: 'error', error: { type, message } });

describe('classifyAnthropicError', () => {
  it('reads a retry-after HTTP date against the scheduler clock', () => {
    const headers = new Headers({ 'retry-after': 'Tue, 01 Jan 2030 00:00:05 GMT' });
    const error = classifyAnthropicError(
      APIError.generate(429, body('rate_limit_error', 'slow'), undefined, headers),
      context,
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryAfterMs: 5000 });
  });

  it('matches the other context overflow wording', () => {
    const message = 'input length and `max_tokens` exceed context limit: 190000 + 20000 > 200000';
    const error = classifyAnthropicError(
      APIError.generate(400, body('invalid_request_error', message), undefined, new Headers()),
      context,
    );
    expect(ContextOverflowError.isInstance(error)).toBe(true);
  });

  it('keeps other 400s as non-retryable ProviderErrors', () => {
    const error = classifyAnthropicError(
      APIError.generate(400, body('invalid_request_error', 'messages: bad'), undefined, new Headers()),
      context,
    );
    expect(error).toMatchObject({
      name: 'ProviderError',
      status: 400,
      retryable: false,
      code: 'invalid_request_error',
    });
  });

  it('lets x-should-retry: true make a 4xx retryable', () => {
    const headers = new Headers({ 'x-should-retry': 'true' });
    const error = classifyAnthropicError(
      APIError.generate(400, body('invalid_request_error', 'x'), undefined, headers),
      context,
    );
    expect(error.retryable).toBe(true);
  });

  it('treats in-stream api_error as retryable and invalid_request_error as not', () => {
    const apiError = new APIError(
      undefined,
      body('api_error', 'boom'),
      undefined,
      new Headers(),
      'api_error',
    );
    expect(classifyAnthropicError(apiError, context)).toMatchObject({
      name: 'ProviderError',
      retryable: true,
    });
    expect(anthropicStreamError(body('invalid_request_error', 'no'))).toMatchObject({ retryable: false });
    expect(OverloadedError.isInstance(anthropicStreamError(body('overloaded_error', 'Overloaded')))).toBe(
      true,
    );
  });

  it('maps connection failures and timeouts', () => {
    const refused = new APIConnectionError({ cause: new Error('connect ECONNREFUSED') });
    expect(NetworkError.isInstance(classifyAnthropicError(refused, context))).toBe(true);
    expect(
      ProviderTimeoutError.isInstance(classifyAnthropicError(new APIConnectionTimeoutError(), context)),
    ).toBe(true);
  });

  it('finds an undici cut through the cause chain', () => {
    const cut = Object.assign(new TypeError('terminated'), {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    const wrapped = new Error('stream failed', { cause: cut });
    expect(
      PartialStreamError.isInstance(classifyAnthropicError(wrapped, { ...context, received: true })),
    ).toBe(true);
    expect(NetworkError.isInstance(classifyAnthropicError(wrapped, context))).toBe(true);
  });

  it('reports an event that is not JSON as a partial stream', () => {
    let parseError: unknown;
    try {
      JSON.parse('{"type":');
    } catch (error) {
      parseError = error;
    }
    expect(
      PartialStreamError.isInstance(classifyAnthropicError(parseError, { ...context, received: true })),
    ).toBe(true);
  });

  it('never puts the API key into the message', () => {
    const key = 'sk-ant-secret-1234567890';
    const error = classifyAnthropicError(
      new InternalServerError(500, body('api_error', `bad key ${key}`), undefined, new Headers()),
      { ...context, apiKey: key },
    );
    expect(error.message).not.toContain(key);
    expect(error.message).toContain('[redacted]');
  });

  it('keeps the apiKey and authToken out of an in-stream error event and of a non-JSON event', () => {
    const [key, token] = ['sk-ant-secret-1234567890', 'sk-ant-tok-0987']; // short: JSON.parse quotes it whole
    const error = anthropicStreamError(body('api_error', `bad ${key} and ${token}`), [key, token]);
    expect(error.message).toBe('Anthropic stream error (api_error): bad [redacted] and [redacted]');
    expect(JSON.stringify(error.body)).not.toMatch(/sk-ant-(secret|tok)/);
    let parseError: unknown;
    try {
      JSON.parse(token);
    } catch (caught) {
      parseError = caught;
    }
    const parsed = classifyAnthropicError(parseError, { ...context, received: true, authToken: token });
    expect(parsed.message).toContain('[redacted]');
    expect(parsed.message).not.toContain(token);
    expect(String((parsed.cause as Error).stack)).not.toContain(token);
  });

  it('passes typed errors through and wraps anything else as non-retryable', () => {
    const typed = new RateLimitError('x');
    expect(classifyAnthropicError(typed, context)).toBe(typed);
    const other = classifyAnthropicError(new Error('weird'), context);
    expect(other).toMatchObject({ name: 'ProviderError', retryable: false });
    expect(ProviderError.isInstance(other)).toBe(true);
  });
});
