import { readFileSync } from 'node:fs';
import type { SseEvent } from './sse-test-server.js';

/**
 * A recorded provider stream (a `.chunks.txt` file: one event's JSON data per line, as other
 * SDKs keep them as test fixtures) as the SSE events `startSseTestServer` replays, each with
 * its `event:` line set to the data's `type` (the official SDKs read both).
 *
 * @example
 * const server = await startSseTestServer(() => ({ events: recordedStream(join(__dirname, '__fixtures__', 'openai-phase.1.chunks.txt')) }));
 */
export function recordedStream(path: string): SseEvent[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const data = JSON.parse(line) as { type?: unknown };
      return typeof data.type === 'string' ? { event: data.type, data } : { data };
    });
}
