import type { Observable, Subscription } from 'rxjs';

/**
 * How `boundedStream` writes an Observable into a web `ReadableStream`.
 *
 * @example
 * const options: BoundedStreamOptions<string> = { limit: 1000, size: () => 1, tooSlow: () => 'cut off' };
 */
export interface BoundedStreamOptions<T> {
  /** Most queued and unread (in `size` units) before the reader is cut off. */
  limit: number;
  /** A chunk's size (bytes, or 1 per object). */
  size: (chunk: T) => number;
  /** The last chunk a reader gets when it is cut off for falling `limit` behind. */
  tooSlow: () => T;
}

/**
 * An Observable as a web `ReadableStream` that never slows the source and never queues without
 * bound: a reader more than `limit` behind gets `tooSlow()` as its last chunk and the source is
 * unsubscribed (for a shared run, the run goes on for its other readers). Cancelling the stream
 * unsubscribes the source. An error of the source errors the stream.
 *
 * @example
 * boundedStream(frames$, { limit: 1 << 24, size: (b) => b.byteLength, tooSlow: () => lastFrame });
 */
export function boundedStream<T>(
  source$: Observable<T>,
  options: BoundedStreamOptions<T>,
): ReadableStream<T> {
  let subscription: Subscription | undefined;
  let done = false;
  return new ReadableStream<T>(
    {
      start(controller) {
        subscription = source$.subscribe({
          next: (chunk) => {
            if (done) return;
            controller.enqueue(chunk);
            if ((controller.desiredSize ?? 0) >= 0) return;
            controller.enqueue(options.tooSlow());
            controller.close();
            done = true;
            subscription?.unsubscribe();
          },
          error: (error: unknown) => {
            if (!done) controller.error(error);
            done = true;
          },
          complete: () => {
            if (!done) controller.close();
            done = true;
          },
        });
        if (done) subscription.unsubscribe();
      },
      cancel() {
        done = true;
        subscription?.unsubscribe();
      },
    },
    { highWaterMark: options.limit, size: options.size },
  );
}
