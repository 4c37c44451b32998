import { defer, filter, map, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from '../../events/agent-event.js';
import { createWireDecoder } from './wire-decoder.js';
import { createWireEncoder } from './wire-encoder.js';
import type { WireEvent } from './wire-event.js';

/**
 * A run's events in their wire form (`WireEvent`: deltas, not snapshots, numbered from 1), one
 * encoder per subscription: to write a run as JSON lines, to a socket, to a store. Bytes grow
 * with the answer, not with its square.
 *
 * @example
 * runAgent(config).pipe(encodeEvents()).subscribe((wire) => process.stdout.write(`${JSON.stringify(wire)}\n`));
 */
export function encodeEvents(): OperatorFunction<AgentEvent, WireEvent> {
  return (source) =>
    defer(() => {
      const encoder = createWireEncoder();
      return source.pipe(map((event) => encoder.encode(event)));
    });
}

/**
 * Wire events (parsed JSON, as `encodeEvents` or `toSSEStream` wrote them) back into the run's
 * events, partial messages rebuilt; duplicates dropped, unknown types skipped, a gap or bad
 * data an error (`WireSequenceError`, `WireFormatError`). One decoder per subscription.
 *
 * @example
 * const { state$ } = withState(lines$.pipe(map((line) => JSON.parse(line) as unknown), decodeEvents()));
 */
export function decodeEvents(): OperatorFunction<unknown, AgentEvent> {
  return (source) =>
    defer(() => {
      const decoder = createWireDecoder();
      return source.pipe(
        map((wire) => decoder.decode(wire)),
        filter((event): event is AgentEvent => event !== undefined),
      );
    });
}
