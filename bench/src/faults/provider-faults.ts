import {
  AuthError,
  NetworkError,
  OverloadedError,
  PartialStreamError,
  ProviderError,
  ProviderTimeoutError,
  RateLimitError,
  StreamIdleError,
} from '@rxagent/core';
import type { SseScript } from '@rxagent/testing';
import { anthropicSseBody, openAIChatSseBody } from '../models/sse-bodies.js';

/** The providers under test. */
export type Provider = 'openai' | 'anthropic';

/** What the server may do to one request. */
export type ProviderFault =
  | '429'
  | '429-retry-after-ms'
  | '429-retry-after-0'
  | '500'
  | '503'
  | '529'
  | '401'
  | 'cut'
  | 'stall'
  | 'malformed'
  | 'error-event';

/**
 * Every fault, for the arbitraries.
 *
 * @example
 * fc.array(fc.constantFrom(...PROVIDER_FAULTS), { maxLength: 4 });
 */
export const PROVIDER_FAULTS: ProviderFault[] = [
  '429',
  '429-retry-after-ms',
  '429-retry-after-0',
  '500',
  '503',
  '529',
  '401',
  'cut',
  'stall',
  'malformed',
  'error-event',
];

/** A class with the `isInstance` check of rxagent errors. */
interface ErrorClass {
  readonly kind: string;
  isInstance(value: unknown): boolean;
}

/** What a fault must turn into: one of these classes, retryable or not, with this retry-after. */
export interface FaultExpectation {
  classes: ErrorClass[];
  retryable: boolean;
  retryAfterMs?: number;
}

/**
 * The error a fault calls for. Both adapters call a malformed chunk a broken stream: a
 * (retryable) PartialStreamError.
 *
 * @example
 * expectedFor('openai', '429-retry-after-ms'); // RateLimitError, retryable, 20 ms
 */
export function expectedFor(provider: Provider, fault: ProviderFault): FaultExpectation {
  switch (fault) {
    case '429':
      return { classes: [RateLimitError], retryable: true };
    case '429-retry-after-ms':
      return { classes: [RateLimitError], retryable: true, retryAfterMs: 20 };
    case '429-retry-after-0':
      return { classes: [RateLimitError], retryable: true, retryAfterMs: 0 };
    case '500':
    case '503':
      return { classes: [ProviderError], retryable: true };
    case '529':
      return { classes: [OverloadedError], retryable: true };
    case '401':
      return { classes: [AuthError], retryable: false };
    case 'cut':
      return { classes: [PartialStreamError, NetworkError], retryable: true };
    case 'stall':
      // The idle timeout, or the head timeout when the client had not read the head yet.
      return { classes: [StreamIdleError, ProviderTimeoutError], retryable: true };
    case 'malformed':
      return { classes: [PartialStreamError], retryable: true };
    case 'error-event':
      return provider === 'openai'
        ? { classes: [ProviderError], retryable: true }
        : { classes: [OverloadedError], retryable: true };
  }
}

function errorJson(provider: Provider, status: number, type: string, message: string): unknown {
  return provider === 'openai'
    ? { error: { message, type, code: null, param: null } }
    : { type: 'error', error: { type, message } };
}

/**
 * A successful answer (three text deltas), optionally split into small transport pieces.
 *
 * @example
 * queue.push(faultScript('openai', '500'), successScript('openai', 7));
 */
export function successScript(provider: Provider, chunkSize?: number): SseScript {
  const body = provider === 'openai' ? openAIChatSseBody(3) : anthropicSseBody(3);
  return { events: [{ raw: body }], ...(chunkSize ? { chunkSize } : {}) };
}

/**
 * The server's answer for one faulty request.
 *
 * @example
 * startSseTestServer(() => faultScript('anthropic', '529'));
 */
export function faultScript(provider: Provider, fault: ProviderFault): SseScript {
  const body = provider === 'openai' ? openAIChatSseBody(20) : anthropicSseBody(20);
  const head = body.slice(0, Math.floor(body.length / 2));
  switch (fault) {
    case '429':
      return { status: 429, json: errorJson(provider, 429, 'rate_limit_error', 'Too many requests') };
    case '429-retry-after-ms':
      return {
        status: 429,
        headers: { 'retry-after-ms': '20' },
        json: errorJson(provider, 429, 'rate_limit_error', 'Too many requests'),
      };
    case '429-retry-after-0':
      return {
        status: 429,
        headers: { 'retry-after': '0' },
        json: errorJson(provider, 429, 'rate_limit_error', 'Too many requests'),
      };
    case '500':
      return { status: 500, json: errorJson(provider, 500, 'api_error', 'Internal server error') };
    case '503':
      return { status: 503, json: errorJson(provider, 503, 'api_error', 'Service unavailable') };
    case '529':
      return { status: 529, json: errorJson(provider, 529, 'overloaded_error', 'Overloaded') };
    case '401':
      return { status: 401, json: errorJson(provider, 401, 'authentication_error', 'Invalid API key') };
    case 'cut':
      return { events: [{ raw: head }], after: 'cut' };
    case 'stall':
      return { events: [{ raw: head }], after: 'stall' };
    case 'malformed':
      return {
        events: [
          { raw: head.slice(0, head.lastIndexOf('\n\n') + 2) },
          { raw: `${provider === 'anthropic' ? 'event: content_block_delta\n' : ''}data: {"broken": \n\n` },
        ],
      };
    case 'error-event':
      return {
        events: [
          { raw: head.slice(0, head.lastIndexOf('\n\n') + 2) },
          provider === 'openai'
            ? { data: { error: { message: 'The server had an error', type: 'server_error' } } }
            : {
                event: 'error',
                data: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
              },
        ],
      };
  }
}
