import { map, share, type Observable } from 'rxjs';
import { formatSSEFrame } from '@rxagent/core/streams';
import type { DashboardUpdate } from './run-registry.js';

/**
 * The registry's updates as SSE frames (UTF-8 bytes), each serialized once and shared by every
 * page that watches (`SseChannel.sendFrame`): with many pages open, an update costs one
 * `JSON.stringify` and one encoding, not one per page.
 *
 * @example
 * const frames$ = updateFrames(registry.updates$);
 * frames$.subscribe((frame) => channel.sendFrame(frame));
 */
export function updateFrames(updates$: Observable<DashboardUpdate>): Observable<Uint8Array> {
  return updates$.pipe(
    map((update) =>
      Buffer.from(formatSSEFrame({ event: update.type, data: JSON.stringify(update) }), 'utf8'),
    ),
    share(),
  );
}
