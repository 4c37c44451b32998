import { lastValueFrom, toArray, VirtualTimeScheduler } from 'rxjs';
import {
  AuthError,
  PartialStreamError,
  ProviderTimeoutError,
  StreamIdleError,
} from '../errors/provider-errors.js';
import { ProviderError } from '../errors/provider-error.js';
import { emptyUsage } from '../messages/usage.js';
import type { ModelEvent } from '../model/model-event.js';
import {
  providerEventStream,
  type ChunkMapper,
  type ProviderStreamSource,
  type StreamOpener,
} from './provider-event-stream.js';

// The shared plumbing alone, with chunks from an async generator standing in for an SDK's
// stream (each adapter's suite runs it with the real SDK against a local server).

/** Chunks are strings; 'END' is the terminal signal, 'DONE' also stops the reading. */
class FakeMapper implements ChunkMapper<string> {
  terminated = false;
  done = false;
  flushed = 0;
  private text = '';
  map(chunk: string): ModelEvent[] {
    if (chunk === 'BOOM') throw new Error('in-stream error');
    if (chunk === 'END' || chunk === 'DONE') {
      this.terminated = true;
      this.done = chunk === 'DONE';
      return [];
    }
    this.text += chunk;
    return [{ type: 'text-delta', index: 0, text: chunk }];
  }
  flush(): ModelEvent[] {
    this.flushed++;
    return [{ type: 'finish', reason: 'stop', message: { ...this.partial(''), stopReason: 'stop' } }];
  }
  partial(why: string) {
    return {
      role: 'assistant' as const,
      content: [{ type: 'text' as const, text: this.text }],
      stopReason: 'error' as const,
      errorMessage: why,
      usage: emptyUsage(),
      provider: 'fake',
      model: 'fake',
      timestamp: 0,
    };
  }
}

/** Yields the chunks, then ends, throws `end`, or waits for the abort (a stall). */
async function* chunks(items: string[], signal: AbortSignal, end: 'stall' | 'end' | Error = 'end') {
  for (const item of items) yield await Promise.resolve(item);
  if (end === 'end') return;
  if (end instanceof Error) throw end;
  await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function source(
  open: StreamOpener<string>,
  extra: Partial<ProviderStreamSource<string, FakeMapper>> = {},
): ProviderStreamSource<string, FakeMapper> {
  return {
    provider: 'fake',
    label: 'Fake',
    scheduler: new VirtualTimeScheduler(),
    timeouts: { each: 200 },
    createMapper: () => new FakeMapper(),
    open,
    classify: (error) => new ProviderError(`classified: ${(error as Error).message}`, { retryable: false }),
    ...extra,
  };
}

const collect = (s: ProviderStreamSource<string, FakeMapper>) =>
  lastValueFrom(providerEventStream(s).pipe(toArray()));
const failure = (s: ProviderStreamSource<string, FakeMapper>) => collect(s).catch((e: unknown) => e);

describe('providerEventStream', () => {
  it("emits the mapper's events, then its closing events once the terminal signal came", async () => {
    const events = await collect(source(async (signal) => chunks(['Hel', 'lo', 'END'], signal)));
    expect(events.map((e) => e.type)).toEqual(['text-delta', 'text-delta', 'finish']);
  });

  it('stops reading (and aborts the rest of the body) once the mapper is done', async () => {
    let signal: AbortSignal | undefined;
    const events = await collect(
      source(async (s) => {
        signal = s;
        return chunks(['a', 'DONE', 'not read'], s, 'stall');
      }),
    );
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['a', 'finish']);
    expect(signal?.aborted).toBe(true);
  });

  it('errors with ProviderTimeoutError when the head does not arrive within `first`, and aborts', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const errors: unknown[] = [];
    providerEventStream(
      source(
        (s) => {
          signal = s;
          return new Promise(() => undefined);
        },
        { scheduler, timeouts: { first: 1000, each: 200 } },
      ),
    ).subscribe({ error: (e: unknown) => errors.push(e) });
    await tick();
    scheduler.flush();
    expect(ProviderTimeoutError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as Error).message).toContain('requestTimeoutMs');
    expect(scheduler.now()).toBe(1000);
    expect(signal?.aborted).toBe(true);
  });

  it('has no head deadline of its own without `first` (the idle limit starts at the head)', async () => {
    const scheduler = new VirtualTimeScheduler();
    const errors: unknown[] = [];
    const subscription = providerEventStream(
      source(() => new Promise(() => undefined), { scheduler, timeouts: { each: 200 } }),
    ).subscribe({ error: (e: unknown) => errors.push(e) });
    await tick();
    scheduler.flush();
    expect(errors).toEqual([]);
    subscription.unsubscribe();
  });

  it('errors with StreamIdleError (with the partial) after `each` of silence, and aborts', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const errors: unknown[] = [];
    providerEventStream(
      source(
        async (s) => {
          signal = s;
          return chunks(['Hal'], s, 'stall');
        },
        { scheduler },
      ),
    ).subscribe({ error: (e: unknown) => errors.push(e) });
    await tick();
    scheduler.flush();
    expect(StreamIdleError.isInstance(errors[0])).toBe(true);
    expect((errors[0] as StreamIdleError).idleMs).toBe(200);
    expect((errors[0] as StreamIdleError).partial?.content).toEqual([{ type: 'text', text: 'Hal' }]);
    expect(signal?.aborted).toBe(true);
  });

  it('aborts the request on unsubscribe and leaves no timer', async () => {
    const scheduler = new VirtualTimeScheduler();
    let signal: AbortSignal | undefined;
    const subscription = providerEventStream(
      source(
        async (s) => {
          signal = s;
          return chunks(['a'], s, 'stall');
        },
        { scheduler, timeouts: { first: 500, each: 200 } },
      ),
    ).subscribe();
    await tick();
    expect(signal?.aborted).toBe(false);
    subscription.unsubscribe();
    expect(signal?.aborted).toBe(true);
    expect(scheduler.actions).toHaveLength(0);
  });

  it('passes an error thrown before the request (a missing key) without sending it', async () => {
    let opened = 0;
    const error = await failure(
      source(() => {
        opened++;
        throw new AuthError('no key');
      }),
    );
    expect(AuthError.isInstance(error)).toBe(true);
    expect(opened).toBe(1);
  });

  it('classifies what the SDK or the mapper throws, with what had arrived', async () => {
    let seen: { received: boolean; partial: string } | undefined;
    const error = await failure(
      source(async (s) => chunks(['a', 'BOOM'], s), {
        classify: (e, context) => {
          seen = { received: context.received, partial: JSON.stringify(context.partial('x').content) };
          return new ProviderError(`classified: ${(e as Error).message}`);
        },
      }),
    );
    expect((error as Error).message).toBe('classified: in-stream error');
    expect(seen).toEqual({ received: true, partial: '[{"type":"text","text":"a"}]' });
  });

  it('completes when the connection drops after the terminal signal, errors when it drops before', async () => {
    const cut = new TypeError('terminated');
    const done = await collect(source(async (s) => chunks(['a', 'END'], s, cut)));
    expect(done.map((e) => e.type)).toEqual(['text-delta', 'finish']);
    const error = await failure(source(async (s) => chunks(['a'], s, cut)));
    expect((error as Error).message).toBe('classified: terminated');
  });

  it('errors with PartialStreamError (with the partial) when the body ends without the terminal signal', async () => {
    const error = await failure(source(async (s) => chunks(['a', 'b'], s)));
    expect(PartialStreamError.isInstance(error)).toBe(true);
    expect((error as PartialStreamError).partial?.content).toEqual([{ type: 'text', text: 'ab' }]);
    expect((error as PartialStreamError).provider).toBe('fake');
  });

  it('continues the same message with the requests `next` gives, then flushes once', async () => {
    const hops: number[] = [];
    let mapper: FakeMapper | undefined;
    const events = await collect(
      source(async (s) => chunks(['a', 'END'], s), {
        createMapper: () => (mapper = new FakeMapper()),
        next: (m, count) => {
          hops.push(count);
          if (count >= 3) return undefined;
          m.terminated = false;
          return async (s) => chunks([`b${count}`, 'END'], s);
        },
      }),
    );
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual([
      'a',
      'b1',
      'b2',
      'finish',
    ]);
    expect(hops).toEqual([1, 2, 3]);
    expect(mapper?.flushed).toBe(1);
  });

  it('is cold: each subscription is a new request with a new mapper', async () => {
    let opened = 0;
    const stream$ = providerEventStream(
      source(async (s) => {
        opened++;
        return chunks(['x', 'END'], s);
      }),
    );
    expect(opened).toBe(0);
    await lastValueFrom(stream$.pipe(toArray()));
    const second = await lastValueFrom(stream$.pipe(toArray()));
    expect(opened).toBe(2);
    expect(second.map((e) => e.type)).toEqual(['text-delta', 'finish']);
  });
});
