import { TestScheduler } from 'rxjs/testing';
import { SseChannel, type SseResponse } from './sse-channel.js';

class FakeResponse implements SseResponse {
  status?: number;
  headers?: Record<string, string>;
  chunks: string[] = [];
  /** The chunks as written (a shared frame is the same object for every channel). */
  raw: (string | Uint8Array)[] = [];
  ended = false;
  destroyed = false;
  /** While true, `write` accepts the chunk but says the buffer is full (a slow reader). */
  full = false;
  private closeListeners: (() => void)[] = [];
  private drainListeners: (() => void)[] = [];

  writeHead(status: number, headers: Record<string, string>): this {
    this.status = status;
    this.headers = headers;
    return this;
  }
  write(chunk: string | Uint8Array): boolean {
    if (this.ended) throw new Error('write after end');
    this.raw.push(chunk);
    this.chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return !this.full;
  }
  destroy(): this {
    this.destroyed = true;
    this.emitClose();
    return this;
  }
  drain(): void {
    this.full = false;
    for (const listener of this.drainListeners) listener();
  }
  end(): this {
    this.ended = true;
    this.emitClose();
    return this;
  }
  on(event: 'close' | 'drain', listener: () => void): this {
    (event === 'close' ? this.closeListeners : this.drainListeners).push(listener);
    return this;
  }
  emitClose(): void {
    for (const listener of this.closeListeners) listener();
  }
}

function virtualTime(): TestScheduler {
  return new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
}

describe('SseChannel', () => {
  it('opens an event stream and sends data as JSON events', () => {
    const res = new FakeResponse();
    const channel = new SseChannel(res, { heartbeatMs: 0, retryMs: 500 });
    expect(res.status).toBe(200);
    expect(res.headers?.['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(res.headers?.['cache-control']).toContain('no-cache');
    expect(channel.send('run', { id: 'run-1', text: 'two\nlines' })).toBe(true);
    expect(res.chunks).toEqual([
      'retry: 500\n\n',
      'event: run\ndata: {"id":"run-1","text":"two\\nlines"}\n\n',
    ]);
  });

  it('sends heartbeat comments on the scheduler until the channel closes', () => {
    const testScheduler = virtualTime();
    testScheduler.run(() => {
      const res = new FakeResponse();
      const channel = new SseChannel(res, { heartbeatMs: 1000, scheduler: testScheduler });
      testScheduler.schedule(
        () => expect(res.chunks.filter((c) => c === ': heartbeat\n\n')).toHaveLength(2),
        2500,
      );
      testScheduler.schedule(() => channel.close(), 2600);
      testScheduler.schedule(() => {
        expect(res.chunks.filter((c) => c === ': heartbeat\n\n')).toHaveLength(2);
        expect(res.ended).toBe(true);
      }, 9000);
    });
  });

  it('cleans up once when the client goes away, and sends nothing after', () => {
    const testScheduler = virtualTime();
    testScheduler.run(() => {
      const res = new FakeResponse();
      const channel = new SseChannel(res, { heartbeatMs: 1000, scheduler: testScheduler });
      const closed = jest.fn();
      channel.onClose(closed);
      testScheduler.schedule(() => res.emitClose(), 1500);
      testScheduler.schedule(() => {
        expect(closed).toHaveBeenCalledTimes(1);
        expect(channel.closed).toBe(true);
        expect(channel.send('run', {})).toBe(false);
        expect(channel.comment('x')).toBe(false);
        // One heartbeat before the client left, none after.
        expect(res.chunks.filter((c) => c.startsWith(':'))).toHaveLength(1);
        channel.close(); // idempotent: the response is not ended twice by us
        expect(closed).toHaveBeenCalledTimes(1);
      }, 5000);
    });
  });

  it('runs a close listener at once when the channel is already closed', () => {
    const channel = new SseChannel(new FakeResponse(), { heartbeatMs: 0 });
    channel.close();
    const late = jest.fn();
    channel.onClose(late);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('stops writing when the response is full and resumes on drain, in order', () => {
    const res = new FakeResponse();
    const channel = new SseChannel(res, { heartbeatMs: 0 });
    res.full = true;
    channel.send('n', 1); // written: this write is the one that fills the buffer
    channel.send('n', 2);
    channel.send('n', 3);
    expect(res.chunks.filter((c) => c.startsWith('event:'))).toHaveLength(1);
    expect(channel.queuedBytes).toBe(2 * 'event: n\ndata: 2\n\n'.length);
    res.drain();
    expect(channel.queuedBytes).toBe(0);
    expect(res.chunks.slice(1)).toEqual([
      'event: n\ndata: 1\n\n',
      'event: n\ndata: 2\n\n',
      'event: n\ndata: 3\n\n',
    ]);
  });

  it('closes a client that falls too far behind, its queue never over the bound', () => {
    const res = new FakeResponse();
    const channel = new SseChannel(res, { heartbeatMs: 0, maxQueuedBytes: 1000 });
    const closed = jest.fn();
    channel.onClose(closed);
    res.full = true;
    let sent = 0;
    while (channel.send('run', { text: 'x'.repeat(90) })) {
      sent++;
      expect(channel.queuedBytes).toBeLessThanOrEqual(1000);
    }
    expect(sent).toBeGreaterThan(5);
    expect(sent).toBeLessThan(20);
    expect(channel.closed).toBe(true);
    expect(channel.queuedBytes).toBe(0);
    expect(res.destroyed).toBe(true);
    expect(closed).toHaveBeenCalledTimes(1);
  });
});
