import type { WireError } from './wire-error.js';

/** A refusal of the model proxy: the HTTP status and the typed error the client gets. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    readonly wire: WireError,
  ) {
    super(wire.message);
  }
}

/** A non-retryable `ProviderError` answered with `status`. */
export const problem = (status: number, message: string) =>
  new HttpProblem(status, { name: 'ProviderError', message, status, retryable: false });
