import { runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { connectMcp } from './connect-mcp.js';
import type { McpConnection } from './mcp-connection.js';
import { McpConnectionError } from './mcp-errors.js';
import { startEverythingHttp, type HttpServerProcess } from './test-servers.test.js';

// Servers are real processes: starting one takes seconds on a loaded machine.
jest.setTimeout(30_000);

const SECRET = 'sk-test-mcp-header-secret-123456';
const ends = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

describe('server-everything over Streamable HTTP on 127.0.0.1', () => {
  let server: HttpServerProcess;
  let everything: McpConnection;
  beforeAll(async () => {
    server = await startEverythingHttp();
    everything = await connectMcp({
      name: 'remote',
      url: server.url,
      headers: { Authorization: `Bearer ${SECRET}` },
    });
  }, 30_000);
  afterAll(async () => {
    await everything?.close();
    await server?.stop();
  });

  it('lists the tools and runs echo and get-sum in a run, with no header value in any event', async () => {
    expect(everything.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    const model = scriptedModel([
      toolCallTurn([
        { name: 'echo', args: { message: 'over http' } },
        { name: 'get-sum', args: { a: 1, b: 2 } },
      ]),
      textTurn('done'),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go', tools: everything.tools }));
    expect(ends(events).map(texts).sort()).toEqual(['Echo: over http', 'The sum of 1 and 2 is 3.']);
    expect(JSON.stringify(events)).not.toContain(SECRET);
    expect(JSON.stringify(model.requests)).not.toContain(SECRET);
  });

  it('reports progress and images over HTTP too', async () => {
    const model = scriptedModel([
      toolCallTurn([
        { name: 'trigger-long-running-operation', args: { duration: 0.2, steps: 2 } },
        { name: 'get-tiny-image', args: {} },
      ]),
      textTurn('done'),
    ]);
    const events = await collectEvents(runAgent({ model, prompt: 'go', tools: everything.tools }));
    expect(events.some((e) => e.type === 'tool-update' && e.kind === 'progress')).toBe(true);
    const image = ends(events).find((e) => e.toolName === 'get-tiny-image');
    expect(image?.result.content.some((p) => p.type === 'image')).toBe(true);
  });

  it('rejects an unreachable URL with a typed error that shows no query string', async () => {
    const error: unknown = await connectMcp({
      name: 'gone',
      url: `http://127.0.0.1:1/mcp?token=${SECRET}`,
    }).catch((e: unknown) => e);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /Could not connect to the MCP server "gone": failed to reach http:\/\/127\.0\.0\.1:1\/mcp:/,
    );
    expect((error as Error).message).not.toContain(SECRET);
  });
});
