import { RxAgentError } from '@rxagent/core';

/**
 * Base of every error of `@rxagent/replay`.
 *
 * @example
 * if (ReplayError.isInstance(error)) console.error(error.message);
 */
export class ReplayError extends RxAgentError {
  static override readonly kind: string = 'ReplayError';
}

/**
 * The data is not a run log (`recordRun` writes them): no header, or a line that is not JSON in
 * the middle of the log. The message names the line.
 *
 * @example
 * try { readRunLog(text); } catch (e) { if (RunLogFormatError.isInstance(e)) console.error(e.message); }
 */
export class RunLogFormatError extends ReplayError {
  static override readonly kind: string = 'RunLogFormatError';
}

/**
 * The log was written in another version of the run-log format than this package reads.
 *
 * @example
 * if (RunLogVersionError.isInstance(e)) console.error(`log v${e.found}, reader v${e.expected}`);
 */
export class RunLogVersionError extends ReplayError {
  static override readonly kind: string = 'RunLogVersionError';
  constructor(
    readonly found: unknown,
    readonly expected: number,
  ) {
    super(
      `The run log was written in format version ${String(found)}; this @rxagent/replay reads version ${expected}. ` +
        'Read it with the @rxagent/replay that wrote it.',
    );
  }
}

/**
 * The log stops before the run's end (a process killed while recording, a torn last line): a
 * replay gives the events up to the cut, then this error, which says where the log stops.
 *
 * @example
 * replayRun(log).subscribe({ error: (e) => RunLogTruncatedError.isInstance(e) && console.log(`cut after event ${e.afterSeq}`) });
 */
export class RunLogTruncatedError extends ReplayError {
  static override readonly kind: string = 'RunLogTruncatedError';
  constructor(
    /** The 1-based line where the log stops (the torn line, or one past the last). */
    readonly line: number,
    /** The last event replayed (its sequence number; 0 when none). */
    readonly afterSeq: number,
    readonly reason: string,
  ) {
    super(
      `The run log stops at line ${line}, after event ${afterSeq}, before the run's end (${reason}): ` +
        'the events up to there were replayed. Record the run to its end to replay all of it.',
    );
  }
}

/**
 * A recorded tool call has no recorded result: the log is damaged, or the current code asks
 * for a call the recording never made. A replay never runs the tool instead.
 *
 * @example
 * if (MissingToolResultError.isInstance(e)) console.error(`no result for ${e.toolCallId}`);
 */
export class MissingToolResultError extends ReplayError {
  static override readonly kind: string = 'MissingToolResultError';
  constructor(
    readonly toolCallId: string,
    readonly toolName: string,
  ) {
    super(
      `The log has no result for the tool call ${toolCallId} (${toolName}): a replay never calls a tool. ` +
        'Record the run again, or fork it at an earlier step to run the tool live.',
    );
  }
}

/**
 * The fork point does not exist in the log (no such step, tool call or event, or the log holds
 * no snapshots), or the edit does not fit it. Thrown by `forkRun` before any model call.
 *
 * @example
 * try { forkRun(log, { at: { step: 99 }, config }); } catch (e) { if (ForkError.isInstance(e)) console.error(e.message); }
 */
export class ForkError extends ReplayError {
  static override readonly kind: string = 'ForkError';
}
