import { lastValueFrom, toArray } from 'rxjs';
import type OpenAI from 'openai';
import { AuthError, emptyUsage, ProviderError, type ModelEvent } from '@rxagent/core';
import {
  openaiEventStream,
  type ChunkMapper,
  type OpenAIStreamSource,
  type SdkRequestOptions,
} from './openai-event-stream.js';

// What the OpenAI wrapper adds to the core's plumbing (timeouts, cuts and partial streams are
// specified in @rxagent/core/provider and run with the real SDK in openai-chat-model.spec.ts).

class FakeMapper implements ChunkMapper<string> {
  terminated = false;
  readonly done = false;
  map(chunk: string): ModelEvent[] {
    if (chunk === 'END') this.terminated = true;
    if (chunk === 'LEAK') throw new Error('the key sk-secret-123 leaked');
    return [];
  }
  flush(): ModelEvent[] {
    return [{ type: 'finish', reason: 'stop', message: this.partial('') }];
  }
  partial(why: string) {
    return {
      role: 'assistant' as const,
      content: [],
      stopReason: 'error' as const,
      errorMessage: why,
      usage: emptyUsage(),
      provider: 'openai',
      model: 'fake',
      timestamp: 0,
    };
  }
}

async function* chunks(items: string[]) {
  for (const item of items) yield await Promise.resolve(item);
}

function source(
  open: (options: SdkRequestOptions) => Promise<AsyncIterable<string>>,
  extra: Partial<OpenAIStreamSource<string>> = {},
): OpenAIStreamSource<string> {
  return {
    modelId: 'fake',
    scheduler: { now: () => 0, schedule: () => ({ unsubscribe: () => undefined }) } as never,
    idleTimeoutMs: 0,
    connect: () => ({ client: {} as OpenAI, secret: 'sk-secret-123' }),
    open: (_client, options) => open(options),
    createMapper: () => new FakeMapper(),
    requestOptions: {},
    ...extra,
  };
}

describe('openaiEventStream', () => {
  it('passes maxRetries 0, the signal and the request options to the SDK', async () => {
    let seen: SdkRequestOptions | undefined;
    const stream$ = openaiEventStream(
      source(
        (options) => {
          seen = options;
          return Promise.resolve(chunks(['a', 'END']));
        },
        { requestOptions: { headers: { 'x-a': '1' } } },
      ),
    );
    expect((await lastValueFrom(stream$.pipe(toArray()))).map((e) => e.type)).toEqual(['finish']);
    expect(seen).toMatchObject({ maxRetries: 0, headers: { 'x-a': '1' } });
    expect(seen?.signal).toBeInstanceOf(AbortSignal);
  });

  it('errors with AuthError from connect without opening a request', async () => {
    const open = jest.fn();
    const error = await lastValueFrom(
      openaiEventStream(
        source(open, {
          connect: () => {
            throw new AuthError('no key');
          },
        }),
      ),
    ).catch((e: unknown) => e);
    expect(AuthError.isInstance(error)).toBe(true);
    expect(open).not.toHaveBeenCalled();
  });

  it("classifies other failures as OpenAI errors, with the client's key removed", async () => {
    const error = await lastValueFrom(
      openaiEventStream(source(() => Promise.resolve(chunks(['a', 'LEAK'])))),
    ).catch((e: unknown) => e);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect((error as ProviderError).provider).toBe('openai');
    expect((error as Error).message).toContain('[redacted]');
    expect((error as Error).message).not.toContain('sk-secret-123');
  });
});
