/**
 * Writes a line about the durable machinery (takeovers, cancels, fencing) to stderr when
 * RXAGENT_DURABLE_DEBUG is set: what to turn on when a run does not move as expected. It never
 * writes events, arguments or results, only ids and error names.
 */
export function debugLog(message: string): void {
  if (process.env.RXAGENT_DURABLE_DEBUG)
    process.stderr.write(`[rxagent/durable ${process.pid}] ${message}\n`);
}
