import { RxAgentError } from '../errors/rxagent-error.js';
import type { SerializedError } from '../errors/serialize-error.js';

/**
 * A run completed without `agent-end` (it was cut by `take`, `takeUntil` or a filter), so it
 * has no result.
 *
 * @example
 * runResult(run$).catch((e) => { if (NoRunResultError.isInstance(e)) console.log('cut short'); });
 */
export class NoRunResultError extends RxAgentError {
  static override readonly kind: string = 'NoRunResultError';
}

/**
 * `eachEvent` buffered more events than `bufferSize` while the loop body was busy: the run was
 * cancelled rather than events dropped silently.
 *
 * @example
 * for await (const e of eachEvent(run$, { bufferSize: 10_000 })) await slowWrite(e);
 */
export class EventBufferOverflowError extends RxAgentError {
  static override readonly kind: string = 'EventBufferOverflowError';
  constructor(readonly bufferSize: number) {
    super(
      `eachEvent buffered ${bufferSize} events that the loop had not taken yet, so the run was cancelled. ` +
        'Raise { bufferSize }, or do less work per event inside the for await loop.',
    );
  }
}

/**
 * The run behind an SSE stream failed on the server; `remote` is the error the server sent
 * (a `SerializedError`: name, message, status…).
 *
 * @example
 * fromSSE('/runs/1/events').subscribe({ error: (e) => RemoteRunError.isInstance(e) && show(e.remote.name) });
 */
export class RemoteRunError extends RxAgentError {
  static override readonly kind: string = 'RemoteRunError';
  constructor(readonly remote: SerializedError) {
    super(`The run failed on the server: ${remote.name}: ${remote.message}`);
  }
}

/**
 * `fromSSE` could not (re)connect to the stream: the response was not a 2xx event stream, or
 * the connection dropped more times in a row than `maxRetries`.
 *
 * @example
 * fromSSE(url, { maxRetries: 5 }).subscribe({ error: (e) => SSEConnectionError.isInstance(e) && retryLater() });
 */
export class SSEConnectionError extends RxAgentError {
  static override readonly kind: string = 'SSEConnectionError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/**
 * A `shareRun` hub was joined after its run ended and its last watcher left: the replay buffer
 * is gone. Keep one watcher joined, or record the run (`recordRun`) to show it later.
 *
 * @example
 * hub.join().subscribe({ error: (e) => RunReleasedError.isInstance(e) && showRecording() });
 */
export class RunReleasedError extends RxAgentError {
  static override readonly kind: string = 'RunReleasedError';
}
