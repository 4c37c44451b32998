import { RxAgentError } from '../errors/rxagent-error.js';
import { SSEConnectionError } from '../results/result-errors.js';

/**
 * A stream's data is not the rxagent wire format: a frame that is not JSON, an event without a
 * `type` or `seq`, a `message-update` whose delta cannot be folded, a reference to a message the
 * reader never received. Nothing is guessed: the stream stops with this error.
 *
 * @example
 * fromSSE(url).subscribe({ error: (e) => WireFormatError.isInstance(e) && console.error(e.message) });
 */
export class WireFormatError extends RxAgentError {
  static override readonly kind: string = 'WireFormatError';
}

/**
 * Events are missing from a stream: the reader saw sequence number `after`, then `got` (the
 * next one should have been `after + 1`). Duplicates (a number already seen) are dropped
 * without an error; a gap is never papered over.
 *
 * @example
 * if (WireSequenceError.isInstance(e)) console.log(`lost ${e.got - e.after - 1} event(s)`);
 */
export class WireSequenceError extends WireFormatError {
  static override readonly kind: string = 'WireSequenceError';
  constructor(
    readonly after: number,
    readonly got: number,
  ) {
    super(
      `Events ${after + 1}..${got - 1} of the stream are missing (got ${got} after ${after}): ` +
        'the stream was cut or filtered on the way. Read the run again from the start, or resume with Last-Event-ID.',
    );
  }
}

/**
 * A line of a Server-Sent Events stream grew past `maxLineLength` characters without a line
 * end: a corrupt or hostile stream, or an event larger than the reader allows.
 *
 * @example
 * fromSSE(url, { maxLineLength: 64 * 1024 * 1024 }); // allow events up to 64 M characters
 */
export class SSELineTooLongError extends WireFormatError {
  static override readonly kind: string = 'SSELineTooLongError';
  constructor(readonly maxLineLength: number) {
    super(
      `An SSE line passed ${maxLineLength} characters without a line end: the stream is corrupt, or its events are larger ` +
        'than this reader allows. Raise { maxLineLength } if the events are that large.',
    );
  }
}

/**
 * The server sent nothing (not even a keep-alive comment) for `idleTimeoutMs`, as many times
 * in a row as `fromSSE` may reconnect.
 *
 * @example
 * fromSSE(url, { idleTimeoutMs: 60_000 }).subscribe({ error: (e) => SSEIdleTimeoutError.isInstance(e) && retryLater() });
 */
export class SSEIdleTimeoutError extends SSEConnectionError {
  static override readonly kind: string = 'SSEIdleTimeoutError';
}

/**
 * The server would not resume the stream from the client's `Last-Event-ID`: it streams a run
 * that cannot be shared (`sendSSE(res, runAgent(…))` without `shareRun`), which would start a
 * second run, or the id names another run or events it never had. `fromSSE` stops with it.
 *
 * @example
 * fromSSE(url).subscribe({ error: (e) => SSEResumeRefusedError.isInstance(e) && showPartial() });
 */
export class SSEResumeRefusedError extends SSEConnectionError {
  static override readonly kind: string = 'SSEResumeRefusedError';
}

/**
 * The reader of an SSE stream fell further behind than `maxBufferedBytes`: the server cut it
 * off (with this error as the stream's last event) rather than hold the run back for it or
 * buffer without bound. A run shared by `shareRun` goes on for its other readers, and this one
 * may reconnect.
 *
 * @example
 * toSSEStream(hub, { maxBufferedBytes: 32 * 1024 * 1024 });
 */
export class SSEReaderTooSlowError extends SSEConnectionError {
  static override readonly kind: string = 'SSEReaderTooSlowError';
}
