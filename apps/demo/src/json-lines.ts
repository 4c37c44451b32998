import { map, pipe, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';
import { encodeEvents, type WireEvent } from '@rxagent/core/streams';

/**
 * One wire event as a line of JSON (newline included).
 *
 * @example
 * process.stdout.write(toJsonLine({ seq: 1, type: 'turn-start', step: 1 })); // '{"seq":1,"type":"turn-start","step":1}\n'
 */
export function toJsonLine(wire: WireEvent): string {
  return `${JSON.stringify(wire)}\n`;
}

/**
 * Maps a run's events to JSON lines in the wire format of `@rxagent/core/streams`
 * (`encodeEvents`): each event with its sequence number `seq`, a `message-update` as its
 * delta — so the output grows with the answer, not with its square. `decodeEvents()` reads
 * them back into the run's very events (partial messages included); `jq` reads them as they are.
 *
 * @example
 * runAgent(config).pipe(jsonLines()).subscribe((line) => process.stdout.write(line));
 */
export function jsonLines(): OperatorFunction<AgentEvent, string> {
  return pipe(encodeEvents(), map(toJsonLine));
}
