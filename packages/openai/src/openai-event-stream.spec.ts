import { VirtualTimeScheduler, lastValueFrom, toArray } from 'rxjs';
import type OpenAI from 'openai';
import {
  AuthError,
  PartialStreamError,
  ProviderTimeoutError,
  StreamIdleError,
  emptyUsage,
  type ModelEvent,
} from '@rxagent/core';
import {
  openaiEventStream,
  type ChunkMapper,
  type OpenAIStreamSource,
  type SdkRequestOptions,
} from './openai-event-stream.js';

/** Chunks are strings; 'END' is the terminal signal. */
class FakeMapper implements ChunkMapper<string> {
  terminated = false;
  readonly done = false;
  private text = '';
  map(chunk: string): ModelEvent[] {
    if (chunk === 'END') this.terminated = true;
    else this.text += chunk;
    return chunk === 'END' ? [] : [{ type: 'text-delta', index: 0, text: chunk }];
  }
  flush(): ModelEvent[] {
    return [{ type: 'finish', reason: 'stop', message: this.partial('') }];
  }
  partial(why: string) {
    return {
      role: 'assistant' as const,
      content: [{ type: 'text' as const, text: this.text }],
      stopReason: 'error' as const,
      errorMessage: why,
      usage: emptyUsage(),
      provider: 'openai',
      model: 'fake',
      timestamp: 0,
    };
  }
}

/** Yields the chunks, then waits for the abort (a stall) or throws `endWith`. */
async function* chunks(items: string[], signal: AbortSignal, end: 'stall' | 'end' | Error) {
  for (const item of items) yield await Promise.resolve(item);
  if (end === 'end') return;
  if (end instanceof Error) throw end;
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function source(
  open: (options: SdkRequestOptions) => Promise<AsyncIterable<string>>,
  extra: Partial<OpenAIStreamSource<string>> = {},
): OpenAIStreamSource<string> {
  return {
    modelId: 'fake',
    scheduler: new VirtualTimeScheduler(),
    idleTimeoutMs: 200,
    connect: () => ({ client: {} as OpenAI, secret: 'sk-x' }),
    open: (_client, options) => open(options),
    createMapper: () => new FakeMapper(),
    requestOptions: {},
    ...extra,
  };
}

describe('openaiEventStream', () => {
  it('errors with ProviderTimeoutError when the head does not arrive in requestTimeoutMs', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const errors: unknown[] = [];
    openaiEventStream(
      source(
        (options) => {
          signal = options.signal;
          return new Promise(() => undefined);
        },
        { scheduler, requestTimeoutMs: 1000 },
      ),
    ).subscribe({ error: (e: unknown) => errors.push(e) });
    await tick();
    scheduler.flush();
    expect(ProviderTimeoutError.isInstance(errors[0])).toBe(true);
    expect(scheduler.now()).toBe(1000);
    expect(signal?.aborted).toBe(true);
  });

  it('errors with StreamIdleError (with the partial) after idleTimeoutMs of silence, and aborts', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const errors: unknown[] = [];
    openaiEventStream(
      source(
        (options) => {
          signal = options.signal;
          return Promise.resolve(chunks(['Hal'], options.signal, 'stall'));
        },
        { scheduler },
      ),
    ).subscribe({ error: (e: unknown) => errors.push(e) });
    await tick();
    scheduler.flush();
    expect(StreamIdleError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as StreamIdleError).partial?.content).toEqual([{ type: 'text', text: 'Hal' }]);
    expect(signal?.aborted).toBe(true);
  });

  it('aborts the request on unsubscribe', async () => {
    let signal: AbortSignal | undefined;
    const subscription = openaiEventStream(
      source((options) => {
        signal = options.signal;
        return Promise.resolve(chunks(['a'], options.signal, 'stall'));
      }),
    ).subscribe();
    await tick();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
  });

  it('passes maxRetries 0 and the request options to the SDK', async () => {
    let seen: SdkRequestOptions | undefined;
    const stream$ = openaiEventStream(
      source(
        (options) => {
          seen = options;
          return Promise.resolve(chunks(['a', 'END'], options.signal, 'end'));
        },
        { requestOptions: { headers: { 'x-a': '1' } } },
      ),
    );
    await lastValueFrom(stream$.pipe(toArray()));
    expect(seen).toMatchObject({ maxRetries: 0, headers: { 'x-a': '1' } });
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

  it('completes when the connection drops after the terminal signal, errors when it drops before', async () => {
    const cut = new TypeError('terminated');
    const done = await lastValueFrom(
      openaiEventStream(source((o) => Promise.resolve(chunks(['a', 'END'], o.signal, cut)))).pipe(toArray()),
    );
    expect(done.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    const error = await lastValueFrom(
      openaiEventStream(source((o) => Promise.resolve(chunks(['a'], o.signal, cut)))),
    ).catch((e: unknown) => e);
    expect(PartialStreamError.isInstance(error)).toBe(true);
  });

  it('errors with PartialStreamError when the iterator ends without the terminal signal', async () => {
    const error = await lastValueFrom(
      openaiEventStream(source((o) => Promise.resolve(chunks(['a', 'b'], o.signal, 'end')))),
    ).catch((e: unknown) => e);
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'ab' }]);
  });
});
