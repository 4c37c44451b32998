import { Agent } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { RunRegistry } from './run-registry.js';
import { SseChannel, type SseResponse } from './sse-channel.js';

/** A response that keeps what was written, as written. */
function response(): SseResponse & { chunks: (string | Uint8Array)[] } {
  const chunks: (string | Uint8Array)[] = [];
  return {
    chunks,
    writeHead: () => undefined,
    write: (chunk) => {
      chunks.push(chunk);
      return true;
    },
    end: () => undefined,
    destroy: () => undefined,
    on: () => undefined,
  };
}

describe('updateFrames (registry.frames$)', () => {
  it('serializes each update once: every page gets the very same bytes', async () => {
    const registry = new RunRegistry({ throttleMs: 0 });
    const pages = [response(), response(), response()];
    for (const res of pages) {
      const channel = new SseChannel(res, { heartbeatMs: 0 });
      registry.frames$.subscribe((frame) => channel.sendFrame(frame));
    }
    const agent = new Agent({ model: scriptedModel([textTurn('Hello there.', { chunks: 3 })]) });
    registry.add(agent, 'greeting');
    await agent.prompt('hi');
    const [first, ...others] = pages.map((p) => p.chunks.slice(1)); // after the `retry:` line
    expect(first?.length).toBeGreaterThan(3);
    for (const chunks of others) {
      expect(chunks).toHaveLength(first?.length ?? 0);
      chunks.forEach((chunk, i) => expect(chunk).toBe(first?.[i])); // the same object, not an equal copy
    }
    const text = Buffer.from(first?.[0] as Uint8Array).toString('utf8');
    expect(text).toMatch(/^event: (run|event)\ndata: \{/);
    registry.close();
  });
});
