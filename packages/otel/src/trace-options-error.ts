import { RxAgentError } from '@rxagent/core';

/**
 * An option of `traceRun` is not valid; the message names it and what is accepted.
 *
 * @example
 * try { traceRun({ maxContentLength: -1 }); } catch (e) { if (e instanceof TraceOptionsError) console.error(e.message); }
 */
export class TraceOptionsError extends RxAgentError {
  static override readonly kind: string = 'TraceOptionsError';
}
