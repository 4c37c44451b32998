import { from, lastValueFrom, tap, throwError } from 'rxjs';
import { textTurn } from '@rxagent/testing';
import { runAgent } from '../loop/run-agent.js';
import type { ChatModel, ChatRequest } from '../model/chat-model.js';
import { fallbackModel } from '../model/fallback-model.js';
import { AuthError, RateLimitError } from './provider-errors.js';
import { redactError } from './redact-error.js';
import { serializeError } from './serialize-error.js';

const KEY = 'sk-custom-model-secret-1234';

/** A ChatModel other than the built-in adapters, whose errors quote its key (as some SDKs do). */
function leakyModel(errors: Error[], answer = 'Done.'): ChatModel & { secrets: readonly string[] } {
  let call = 0;
  return {
    provider: 'custom',
    modelId: 'leaky-1',
    secrets: [KEY],
    stream: (_request: ChatRequest) => {
      const error = errors[call++];
      return error ? throwError(() => error) : from(textTurn(answer).events);
    },
  };
}

async function outcome(model: ChatModel) {
  const events: unknown[] = [];
  try {
    await lastValueFrom(runAgent({ model, prompt: 'Hi', maxRetries: 1 }).pipe(tap((e) => events.push(e))));
    return { events };
  } catch (error) {
    return { events, error };
  }
}

const everything = (value: unknown): string => {
  const seen = new Set<unknown>();
  const walk = (v: unknown): string => {
    if (typeof v === 'string') return v;
    if (typeof v !== 'object' || v === null || seen.has(v)) return String(v);
    seen.add(v);
    const keys = Reflect.ownKeys(v).filter((k): k is string => typeof k === 'string');
    return keys.map((k) => `${k}=${walk((v as Record<string, unknown>)[k])}`).join(' ');
  };
  return walk(value);
};

describe('a model’s declared secrets never leave through errors', () => {
  it('redacts them from retry events and from the error the run fails with (message, stack, cause)', async () => {
    const model = leakyModel([
      new RateLimitError(`Slow down, ${KEY}`, { retryAfterMs: 1 }),
      new AuthError(`Invalid API key ${KEY}`, { cause: new Error(`upstream said ${KEY}`) }),
    ]);
    const { events, error } = await outcome(model);
    expect(events.some((e) => (e as { type: string }).type === 'retry')).toBe(true);
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(AuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toBe('Invalid API key [redacted]');
    expect(everything(error)).not.toContain(KEY);
    expect(JSON.stringify(serializeError(error))).not.toContain(KEY);
  });

  it('redacts through fallbackModel, failover events included', async () => {
    const leaky = leakyModel([new RateLimitError(`quota for ${KEY}`, { retryAfterMs: 1 })]);
    const model = fallbackModel([leaky, leakyModel([], 'From the second.')]);
    const failovers: unknown[] = [];
    model.events$.subscribe((e) => failovers.push(e));
    const { events } = await outcome(model);
    expect(failovers).toHaveLength(2);
    expect(JSON.stringify([events, failovers])).not.toContain(KEY);
    expect(model.secrets).toEqual([KEY]);
    expect(Object.keys(model)).not.toContain('secrets'); // declared, never serialized
  });

  it('serializeError and redactError apply the secrets they are given, keeping the error’s class', () => {
    const error = new RateLimitError(`over quota for ${KEY}`, { retryAfterMs: 2000, body: { key: KEY } });
    expect(serializeError(error, { secrets: [KEY] })).toEqual({
      name: 'RateLimitError',
      message: 'over quota for [redacted]',
      status: 429,
      retryable: true,
      retryAfterMs: 2000,
    });
    const clean = redactError(error, [KEY]);
    expect(RateLimitError.isInstance(clean)).toBe(true);
    expect(clean).toMatchObject({ retryAfterMs: 2000, body: { key: '[redacted]' } });
    expect(everything(clean)).not.toContain(KEY);
    expect(redactError(error, undefined)).toBe(error);
    const unrelated = new Error('nothing secret here');
    expect(redactError(unrelated, [KEY])).toBe(unrelated);
  });
});
