import { map, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';

/**
 * One event as a line of JSON (newline included). Events are plain JSON by contract, so this
 * is lossless: `JSON.parse(line)` gives the event back.
 *
 * @example
 * process.stdout.write(toJsonLine({ type: 'turn-start', step: 1 })); // '{"type":"turn-start","step":1}\n'
 */
export function toJsonLine(event: AgentEvent): string {
  return `${JSON.stringify(event)}\n`;
}

/**
 * Maps a run's events to JSON lines, to pipe into `jq` or another program.
 *
 * @example
 * runAgent(config).pipe(jsonLines()).subscribe((line) => process.stdout.write(line));
 */
export function jsonLines(): OperatorFunction<AgentEvent, string> {
  return map(toJsonLine);
}
