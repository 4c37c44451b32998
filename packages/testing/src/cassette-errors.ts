import { RxAgentError } from '@rxagent/core';

/**
 * A replayed request differs from every recorded one that is left: `differences` lists where
 * (path, recorded value, received value) against the next recorded request.
 *
 * @example
 * catch (e) { if (CassetteMismatchError.isInstance(e)) console.log(e.differences.join('\n')); }
 */
export class CassetteMismatchError extends RxAgentError {
  static override readonly kind: string = 'CassetteMismatchError';
  constructor(
    readonly file: string,
    readonly index: number,
    readonly differences: string[],
  ) {
    super(
      `The request does not match recorded request #${index + 1} of ${file}:\n` +
        differences.map((d) => `  ${d}`).join('\n') +
        '\nRecord the cassette again (mode: "record", or delete the file with mode "auto") if the change is intended.',
    );
  }
}

/**
 * Replay found no cassette file, or no recorded request left for this call.
 *
 * @example
 * catch (e) { if (CassetteMissingError.isInstance(e)) console.log('record it first'); }
 */
export class CassetteMissingError extends RxAgentError {
  static override readonly kind: string = 'CassetteMissingError';
}
