import { runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { connectMcp } from '../connect-mcp.js';
import type { McpConnection } from '../mcp-connection.js';
import { McpConfigError } from '../mcp-errors.js';
import { startHostileServer, type HostileServer } from './hostile-server.test.js';
import { MCP_LIMIT_DEFAULTS } from './mcp-limits.js';

jest.setTimeout(30_000);

const MiB = 1024 * 1024;
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

/** One run calling `tool` (no per-call timeout: only the limits can end a call that never does). */
async function call(connection: McpConnection, tool: string) {
  const model = scriptedModel([toolCallTurn({ name: tool, args: {} }), textTurn('done')]);
  const events: AgentEvent[] = await collectEvents(
    runAgent({ model, prompt: 'go', tools: connection.tools, toolTimeoutMs: Infinity }),
  );
  const end = events.find((e): e is ToolEndEvent => e.type === 'tool-end');
  const result = model.requests.at(-1)?.messages.find((m) => m.role === 'tool');
  return { end, text: texts(end), last: events.at(-1), sent: JSON.stringify(result).length };
}

describe('limits on what an MCP server sends over HTTP (hostile server)', () => {
  let server: HostileServer;
  let crowded: HostileServer;
  beforeAll(async () => {
    server = await startHostileServer();
    crowded = await startHostileServer(20_000);
  });
  afterAll(async () => {
    await server.close();
    await crowded.close();
  });

  describe('per message (limits.maxMessageBytes = 1 MiB)', () => {
    let hostile: McpConnection;
    beforeAll(async () => {
      hostile = await connectMcp({ name: 'hostile', url: server.url, limits: { maxMessageBytes: MiB } });
    });
    afterAll(() => hostile.close());

    it('fails a call answered by one endless server-sent event, and cancels the stream', async () => {
      const before = server.stats.abandoned;
      const { end, text, last } = await call(hostile, 'endless-event');
      expect(end?.isError).toBe(true);
      expect(text).toContain(`larger than ${MiB} bytes (limits.maxMessageBytes)`);
      expect(last).toMatchObject({ type: 'agent-end', reason: 'completed' });
      await waitUntil(() => server.stats.abandoned > before);
    });

    it('fails a call answered by an endless JSON body, and cancels it', async () => {
      const before = server.stats.abandoned;
      const { end, text } = await call(hostile, 'endless-json');
      expect(end?.isError).toBe(true);
      expect(text).toContain('limits.maxMessageBytes');
      await waitUntil(() => server.stats.abandoned > before);
    });

    it('fails a call whose one event is over the bound, and the connection stays usable', async () => {
      const { end, text } = await call(hostile, 'big-event');
      expect(end?.isError).toBe(true);
      expect(text).toContain('limits.maxMessageBytes');
      expect(hostile.status).toBe('connected');
      expect((await call(hostile, 'ok')).text).toBe('fine');
    });
  });

  describe('per result, per list (the defaults)', () => {
    let hostile: McpConnection;
    beforeAll(async () => {
      hostile = await connectMcp({ name: 'hostile', url: crowded.url });
    });
    afterAll(() => hostile.close());

    it('drops a 5 MB text result with a readable error (limits.maxResultBytes, 4 MiB)', async () => {
      const { end, text, sent } = await call(hostile, 'big-text');
      expect(end?.isError).toBe(true);
      expect(text).toMatch(
        /answered "big-text" with 5242880 bytes of content, over the limit of 4194304 \(limits\.maxResultBytes\)/,
      );
      expect(sent).toBeLessThan(1_000); // nothing of it went to the model
    });

    it('drops a result of 200,000 parts (limits.maxResultParts, 1,000)', async () => {
      const { end, text } = await call(hostile, 'many-parts');
      expect(end?.isError).toBe(true);
      expect(text).toContain('with 200000 content parts, over the limit of 1000 (limits.maxResultParts)');
    });

    it('reads at most 1,000 of 20,006 tools and says so in skipped (limits.maxTools)', () => {
      expect(hostile.tools).toHaveLength(MCP_LIMIT_DEFAULTS.maxTools);
      expect(hostile.skipped).toContainEqual({
        name: '*',
        reason: 'the server lists more than 1000 tools (limits.maxTools); the rest were left out',
      });
    });
  });

  it('refuses a limit that is not a positive integer', async () => {
    await expect(connectMcp({ name: 'x', url: server.url, limits: { maxTools: 0 } })).rejects.toThrow(
      McpConfigError,
    );
    await expect(connectMcp({ name: 'x', url: server.url, limits: { maxResultBytes: 1.5 } })).rejects.toThrow(
      'The MCP server "x" has an invalid limits.maxResultBytes: received 1.5; expected a positive integer.',
    );
  });
});

async function waitUntil(done: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((resolve) => setTimeout(resolve, 10));
  expect(done()).toBe(true);
}
