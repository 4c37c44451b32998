import { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  emptyUsage,
} from '@rxagent/core';
import { classifyOpenAIError, InStreamError, type ErrorContext } from './openai-error.js';

const NOW = Date.parse('2026-01-01T00:00:00Z');
const ctx = (extra: Partial<ErrorContext> = {}): ErrorContext => ({
  now: NOW,
  modelId: 'gpt-test',
  secret: 'sk-very-secret',
  received: false,
  partial: (why) => ({
    role: 'assistant',
    content: [{ type: 'text', text: 'so far' }],
    stopReason: 'error',
    errorMessage: why,
    usage: emptyUsage(),
    provider: 'openai',
    model: 'gpt-test',
    timestamp: 0,
  }),
  ...extra,
});
const httpError = (status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
  APIError.generate(status, { error }, undefined, new Headers({ 'x-request-id': 'req_1', ...headers }));

describe('classifyOpenAIError: HTTP errors', () => {
  it('429 → RateLimitError with retry-after and the request id', () => {
    const error = classifyOpenAIError(
      httpError(429, { message: 'Slow down', code: 'rate_limit_exceeded' }, { 'retry-after': '2' }),
      ctx(),
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ status: 429, retryable: true, retryAfterMs: 2000, requestId: 'req_1' });
  });

  it('429 insufficient_quota is not retryable', () => {
    const error = classifyOpenAIError(
      httpError(429, { message: 'Quota', code: 'insufficient_quota' }),
      ctx(),
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ retryable: false });
  });

  it('403 → AuthError, key redacted', () => {
    const error = classifyOpenAIError(
      httpError(403, { message: 'Key sk-very-secret may not use this model' }),
      ctx(),
    );
    expect(AuthError.isInstance(error)).toBe(true);
    expect(error.message).not.toContain('sk-very-secret');
  });

  it('400 with a context-length message but no code (compatible servers) → ContextOverflowError', () => {
    const error = classifyOpenAIError(
      httpError(400, { message: "This model's maximum context length is 4096 tokens." }),
      ctx(),
    );
    expect(ContextOverflowError.isInstance(error)).toBe(true);
  });

  it('a 429 that mentions the context window is still a rate limit', () => {
    const error = classifyOpenAIError(
      httpError(429, { message: 'Too many tokens in your context window per min' }),
      ctx(),
    );
    expect(RateLimitError.isInstance(error)).toBe(true);
  });
});

describe('classifyOpenAIError: connection and stream errors', () => {
  it('APIConnectionTimeoutError → ProviderTimeoutError', () => {
    expect(ProviderTimeoutError.isInstance(classifyOpenAIError(new APIConnectionTimeoutError(), ctx()))).toBe(
      true,
    );
  });

  it('APIConnectionError → NetworkError naming the cause', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });
    const error = classifyOpenAIError(
      new APIConnectionError({ cause: new TypeError('fetch failed', { cause: refused }) }),
      ctx(),
    );
    expect(NetworkError.isInstance(error)).toBe(true);
    expect(error.message).toContain('ECONNREFUSED');
  });

  it('a cut mid-body → PartialStreamError with the partial, or NetworkError when nothing arrived', () => {
    const cut = new TypeError('terminated', {
      cause: Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }),
    });
    const partial = classifyOpenAIError(cut, ctx({ received: true }));
    expect(PartialStreamError.isInstance(partial)).toBe(true);
    expect((partial as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'so far' }]);
    expect(NetworkError.isInstance(classifyOpenAIError(cut, ctx()))).toBe(true);
  });

  it('in-stream errors are classified by code', () => {
    const nested = new APIError(
      undefined,
      { code: 'context_length_exceeded', message: 'Too long' },
      undefined,
      undefined,
    );
    expect(ContextOverflowError.isInstance(classifyOpenAIError(nested, ctx()))).toBe(true);
    const overloaded = classifyOpenAIError(
      new InStreamError({ type: 'overloaded_error', message: 'Busy' }),
      ctx(),
    );
    expect(OverloadedError.isInstance(overloaded)).toBe(true);
    expect(overloaded).toMatchObject({ retryable: true });
    const server = classifyOpenAIError(new InStreamError({ code: 'server_error', message: 'Oops' }), ctx());
    expect(server).toMatchObject({ retryable: true, code: 'server_error' });
    const unknown = classifyOpenAIError(new InStreamError({ code: 'invalid_prompt', message: 'No' }), ctx());
    expect(ProviderError.isInstance(unknown)).toBe(true);
    expect(unknown).toMatchObject({ retryable: false });
  });

  it('a chunk that is not JSON → retryable PartialStreamError (as Anthropic); rxagent errors pass through', () => {
    const parse = classifyOpenAIError(new SyntaxError('Unexpected token'), ctx());
    expect(PartialStreamError.isInstance(parse)).toBe(true);
    expect(parse).toMatchObject({ retryable: true });
    expect(parse.message).toContain('not JSON');
    const own = new NetworkError('x');
    expect(classifyOpenAIError(own, ctx())).toBe(own);
  });
});
