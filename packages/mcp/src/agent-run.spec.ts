import { runAgent, type AgentEvent, type ToolGate } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { McpConfigError } from './mcp-errors.js';
import { isMcpTool } from './mcp-tool.js';
import { mcpTools, type McpToolset } from './mcp-tools.js';
import { edgeStdio, everythingStdio, isAlive } from './test-servers.test.js';

// Servers are real processes: starting one takes seconds on a loaded machine.
jest.setTimeout(30_000);

const ends = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

describe('a whole agent run over two MCP servers', () => {
  let mcp: McpToolset;
  beforeAll(async () => {
    mcp = await mcpTools([
      everythingStdio({ prefix: 'everything' }),
      edgeStdio({ prefix: 'edge', needsApproval: ['add*', 'crash'] }),
    ]);
  }, 30_000);
  afterAll(() => mcp.close());

  it("prefixes each tool name with its server's prefix within provider name rules", () => {
    const names = mcp.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['everything_get-sum', 'everything_echo', 'edge_add', 'edge_stats']),
    );
    expect(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n))).toBe(true);
    expect(mcp.tools.find((t) => t.name === 'edge_add')?.mcp).toMatchObject({ server: 'edge', name: 'add' });
  });

  it('calls tools of both servers, asks approval for the matching ones, and the model reads every result', async () => {
    const model = scriptedModel([
      toolCallTurn(
        [
          { name: 'everything_get-sum', args: { a: 20, b: 22 }, id: 'sum' },
          { name: 'edge_add', args: { a: 1, b: 1 }, id: 'add' },
        ],
        { text: 'Adding.' },
      ),
      toolCallTurn({ name: 'edge_add', args: { a: 5, b: 5 }, id: 'add2' }),
      textTurn('42 and 10.'),
    ]);
    const asked: string[] = [];
    const events = await collectEvents(
      runAgent({
        model,
        prompt: 'Add things',
        tools: mcp.tools,
        approver: ({ toolCallId }) => {
          asked.push(toolCallId);
          return toolCallId === 'add2' ? { approved: true } : { approved: false, reason: 'not now' };
        },
      }),
    );
    expect(asked).toEqual(['add', 'add2']);
    const byId = new Map(ends(events).map((e) => [e.toolCallId, e]));
    expect(texts(byId.get('sum'))).toBe('The sum of 20 and 22 is 42.');
    expect(byId.get('add')?.isError).toBe(true);
    expect(texts(byId.get('add'))).toMatch(/not now/);
    expect(texts(byId.get('add2'))).toBe('10');
    const last = model.requests[2]?.messages ?? [];
    expect(last.filter((m) => m.role === 'tool').map((m) => m.toolCallId)).toEqual(['sum', 'add', 'add2']);
    expect(events[events.length - 1]).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('lets a permission policy use the annotations the server declares', async () => {
    const readOnlyOnly: ToolGate = ({ tool }) =>
      isMcpTool(tool) && tool.mcp.annotations.readOnlyHint !== true
        ? { allowed: false, reason: `${tool.mcp.name} is not read-only` }
        : undefined;
    const model = scriptedModel([
      toolCallTurn([
        { name: 'everything_toggle-simulated-logging', args: {}, id: 'toggle' },
        { name: 'everything_echo', args: { message: 'ok' }, id: 'echo' },
      ]),
      textTurn('done'),
    ]);
    const events = await collectEvents(
      runAgent({ model, prompt: 'go', tools: mcp.tools, toolGate: readOnlyOnly }),
    );
    const byId = new Map(ends(events).map((e) => [e.toolCallId, e]));
    expect(byId.get('toggle')).toMatchObject({ isError: true });
    expect(texts(byId.get('toggle'))).toMatch(/toggle-simulated-logging is not read-only/);
    expect(texts(byId.get('echo'))).toBe('Echo: ok');
  });
});

describe('mcpTools configuration', () => {
  it('refuses two servers of one name, and a name clash between servers, closing what it started', async () => {
    await expect(mcpTools([edgeStdio(), edgeStdio()])).rejects.toThrow(/Two MCP servers are named "edge"/);
    const clash = mcpTools([edgeStdio({ prefix: 'x' }), edgeStdio({ name: 'edge2', prefix: 'x' })]);
    await expect(clash).rejects.toThrow(McpConfigError);
    await expect(clash).rejects.toThrow(
      /both give a tool named "x_add": give one of them a different "prefix"/,
    );
  }, 30_000);

  it('keeps the names a server gives: adding a server renames no tool', async () => {
    const alone = await mcpTools([edgeStdio()]);
    const names = alone.tools.map((t) => t.name);
    await alone.close();
    const two = await mcpTools([edgeStdio(), everythingStdio()]);
    try {
      expect(names).toEqual(expect.arrayContaining(['add', 'stats']));
      expect(two.tools.map((t) => t.name)).toEqual(expect.arrayContaining([...names, 'echo', 'get-sum']));
    } finally {
      await two.close();
    }
  }, 30_000);

  it('closes every server process', async () => {
    const set = await mcpTools([edgeStdio({ prefix: 'one' }), edgeStdio({ name: 'other', prefix: 'other' })]);
    const pids = set.connections.map(
      (c) => (c.client?.transport as { pid?: number | null } | undefined)?.pid ?? 0,
    );
    expect(pids.every((pid) => pid > 0 && isAlive(pid))).toBe(true);
    await set.close();
    expect(pids.map(isAlive)).toEqual([false, false]);
    expect(set.connections.map((c) => c.status)).toEqual(['closed', 'closed']);
  }, 30_000);
});
