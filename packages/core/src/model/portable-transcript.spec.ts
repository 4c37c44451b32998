import { assistantMessage } from '@rxagent/testing';
import {
  AuthError,
  ContextOverflowError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
} from '../errors/provider-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { userMessage } from '../messages/message-helpers.js';
import { failoverReason, isFailoverEligible } from './failover-reason.js';
import { portableTranscript } from './portable-transcript.js';

describe('portableTranscript', () => {
  const fromAnthropic = assistantMessage(
    [
      { type: 'thinking', text: 'plan', signature: 'EqQB-sig' },
      { type: 'thinking', text: '', redacted: 'opaque-data' },
      { type: 'text', text: 'Answer' },
      { type: 'tool-call', id: 'toolu_1', name: 'read', args: { path: 'a' } },
    ],
    'tool-calls',
    { provider: 'anthropic' },
  );
  const transcript = [userMessage('Q'), fromAnthropic];

  it('drops signatures and redacted thinking of another provider, keeping the rest', () => {
    const out = portableTranscript(transcript, 'openai');
    expect(out[1]).toEqual({
      ...fromAnthropic,
      content: [
        { type: 'thinking', text: 'plan' },
        { type: 'text', text: 'Answer' },
        { type: 'tool-call', id: 'toolu_1', name: 'read', args: { path: 'a' } },
      ],
    });
    expect(transcript[1]).toBe(fromAnthropic);
  });

  it("keeps the author's own parts and returns the same array when nothing changes", () => {
    expect(portableTranscript(transcript, 'anthropic')).toBe(transcript);
  });
});

describe('failoverReason', () => {
  it.each([
    [new RateLimitError('x'), 'rate-limit'],
    [new OverloadedError('x'), 'overloaded'],
    [new StreamIdleError('x'), 'stream-idle'],
    [new ProviderTimeoutError('x'), 'timeout'],
    [new NetworkError('x'), 'network'],
    [new PartialStreamError('x'), 'partial-stream'],
    [new ProviderError('x', { status: 503 }), 'server-error'],
  ])('classifies %p as %s', (error, reason) => {
    expect(failoverReason(error)).toBe(reason);
    expect(isFailoverEligible(error)).toBe(true);
  });

  it.each([
    ['auth', new AuthError('bad key')],
    ['context overflow', new ContextOverflowError('too long')],
    ['a 400', new ProviderError('bad request', { status: 400 })],
    ['a user abort', Object.assign(new Error('aborted'), { name: 'AbortError' })],
    ['a plain value', 'oops'],
  ])('never fails over on %s', (_name, error) => {
    expect(failoverReason(error)).toBeUndefined();
    expect(isFailoverEligible(error)).toBe(false);
  });
});
