import { llmStep, executeTools, runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { filter, firstValueFrom, lastValueFrom, Subject, toArray, VirtualTimeScheduler } from 'rxjs';
import { connectMcp } from './connect-mcp.js';
import type { McpConnection } from './mcp-connection.js';
import { McpConnectionError } from './mcp-errors.js';
import { mcpPromptMessages } from './prompt-messages.js';
import { readMcpResource } from './read-resource.js';
import { refreshMcpTools } from './refresh-mcp-tools.js';
import { edgeStdio, isAlive } from './test-servers.test.js';

// Servers are real processes: starting one takes seconds on a loaded machine.
jest.setTimeout(30_000);

const ends = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

interface Stats {
  calls: number;
  cancellations: number;
  pid: number;
}

async function stats(connection: McpConnection): Promise<Stats> {
  const result = await connection.client?.callTool({ name: 'stats', arguments: {} });
  const first = (result?.content as { type: string; text: string }[])[0];
  return JSON.parse(first?.text ?? '{}') as Stats;
}

async function run(
  connection: McpConnection,
  name: string,
  args: unknown,
  extra: { toolTimeoutMs?: number } = {},
) {
  const model = scriptedModel([toolCallTurn({ name, args }), textTurn('done')]);
  const events = await collectEvents(runAgent({ model, prompt: 'go', tools: connection.tools, ...extra }));
  return { events, end: ends(events)[0], model };
}

describe('edge cases against a server written with the official SDK', () => {
  let edge: McpConnection;
  beforeEach(async () => {
    edge = await connectMcp(edgeStdio({ reconnect: { initialDelayMs: 50 } }));
  }, 30_000);
  afterEach(() => edge.close());

  it('sends MCP cancellation when the per-call timeout ends a call that never answers', async () => {
    // The 300 ms pass on the run's clock once the server has the call: a real timer could end
    // the call before a busy machine's server process saw it.
    const scheduler = new VirtualTimeScheduler();
    const model = scriptedModel([toolCallTurn({ name: 'hang', args: {} }), textTurn('done')]);
    const events$ = collectEvents(
      runAgent({ model, prompt: 'go', tools: edge.tools, toolTimeoutMs: 300, scheduler }),
    );
    await waitFor(
      () => stats(edge),
      (s) => s.calls === 1,
    );
    scheduler.flush();
    const end = ends(await events$)[0];
    expect(end).toMatchObject({ isError: true });
    expect(texts(end)).toMatch(/timed out/);
    expect(
      await waitFor(
        () => stats(edge),
        (s) => s.cancellations === 1,
      ),
    ).toMatchObject({ calls: 1, cancellations: 1 });
  });

  it('sends MCP cancellation when the run is unsubscribed mid-call', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'hang', args: {} }), textTurn('done')]);
    const subscription = runAgent({ model, prompt: 'go', tools: edge.tools }).subscribe();
    await waitFor(
      () => stats(edge),
      (s) => s.calls === 1,
    );
    subscription.unsubscribe();
    expect(
      await waitFor(
        () => stats(edge),
        (s) => s.cancellations === 1,
      ),
    ).toMatchObject({ calls: 1, cancellations: 1 });
  });

  it("sends MCP cancellation when a steering message interrupts a server marked interrupt: 'cancel'", async () => {
    const steerable = await connectMcp(edgeStdio({ name: 'steerable', interrupt: 'cancel' }));
    try {
      const steering$ = new Subject<string>();
      const model = scriptedModel([toolCallTurn({ name: 'hang', args: {} }), textTurn('ok')]);
      const events$ = collectEvents(runAgent({ model, prompt: 'go', tools: steerable.tools, steering$ }));
      await waitFor(
        () => stats(steerable),
        (s) => s.calls === 1,
      );
      steering$.next('Stop that, do something else.');
      const events = await events$;
      expect(ends(events)[0]).toMatchObject({ toolName: 'hang', isError: true });
      await expect(
        waitFor(
          () => stats(steerable),
          (s) => s.cancellations === 1,
        ),
      ).resolves.toMatchObject({
        cancellations: 1,
      });
    } finally {
      await steerable.close();
    }
  });

  it('refuses invalid arguments with the schema errors before the server sees the call', async () => {
    const { end } = await run(edge, 'add', { a: 1, b: 'two' });
    expect(end?.isError).toBe(true);
    expect(texts(end)).toMatch(/b/);
    expect(texts(end)).toMatch(/number/);
    expect((await stats(edge)).calls).toBe(0);
    const { end: ok } = await run(edge, 'add', { a: 1, b: 2 });
    expect(texts(ok)).toBe('3');
  });

  it('turns a server that exits mid-call into an error result, then restarts the process', async () => {
    const before = await stats(edge);
    const { end } = await run(edge, 'crash', {});
    expect(end?.isError).toBe(true);
    expect(texts(end)).toMatch(/MCP server "edge" disconnected during the call to "crash"/);
    expect(isAlive(before.pid)).toBe(false);
    await firstValueFrom(edge.status$.pipe(filter((s) => s === 'connected')));
    const after = await stats(edge);
    expect(after.pid).not.toBe(before.pid);
    const { end: again } = await run(edge, 'add', { a: 2, b: 2 });
    expect(texts(again)).toBe('4');
  });

  it('gives up after the reconnect attempts and says so in the results', async () => {
    const fragile = await connectMcp(edgeStdio({ name: 'fragile', reconnect: { maxAttempts: 0 } }));
    try {
      await run(fragile, 'crash', {});
      expect(fragile.status).toBe('failed');
      const { end } = await run(fragile, 'add', { a: 1, b: 1 });
      expect(texts(end)).toMatch(/MCP server "fragile" is unavailable/);
    } finally {
      await fragile.close();
    }
  });

  it('follows a tool list that changes, and refreshMcpTools offers new tools within the run', async () => {
    expect(edge.tools.map((t) => t.name)).not.toContain('late');
    const model = scriptedModel([
      toolCallTurn({ name: 'add-tool', args: { name: 'late' } }),
      toolCallTurn({ name: 'late', args: {} }),
      textTurn('done'),
    ]);
    const events = await collectEvents(
      runAgent({
        model,
        prompt: 'go',
        tools: edge.tools,
        pipeline: (turn$) => turn$.pipe(refreshMcpTools(edge), llmStep(), executeTools()),
      }),
    );
    expect(edge.tools.map((t) => t.name)).toContain('late');
    const [added, late] = ends(events);
    expect(added).toMatchObject({ isError: false });
    expect(late).toMatchObject({ toolName: 'late', isError: false });
    expect(texts(late)).toBe('{"tool":"late"}');
    expect(model.requests[0]?.tools?.map((t) => t.name)).not.toContain('late');
    expect(model.requests[1]?.tools?.map((t) => t.name)).toContain('late');
  });

  it('maps error results, audio and binary resources', async () => {
    const { end: failed } = await run(edge, 'fail', {});
    expect(failed).toMatchObject({ isError: true });
    expect(texts(failed)).toBe('The disk is full.');
    const { end: media } = await run(edge, 'media', {});
    expect(texts(media)).toBe(
      '[audio audio/wav, 12 bytes: not shown]\nResource edge://data.bin (application/octet-stream): binary, 3 bytes, not shown.',
    );
  });

  it('reads resources and prompts of the server', async () => {
    await expect(readMcpResource(edge, 'edge://notes.txt')).resolves.toMatchObject({
      parts: [{ type: 'text', text: 'Resource edge://notes.txt (text/plain):\nRemember the milk.' }],
    });
    const messages = await mcpPromptMessages(edge, 'review', { file: 'a.ts' });
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(messages[0]).toMatchObject({ content: [{ type: 'text', text: 'Review a.ts.' }] });
    expect(messages[1]).toMatchObject({
      content: [{ type: 'text', text: 'Which aspects matter most?' }],
      provider: 'mcp',
      model: 'edge',
    });
  });

  it('closes without leaving the process, and refuses calls afterwards', async () => {
    const { pid } = await stats(edge);
    const statuses = lastValueFrom(edge.status$.pipe(toArray()));
    await edge.close();
    expect(isAlive(pid)).toBe(false);
    expect(await statuses).toEqual(['connected', 'closed']);
    const { end } = await run(edge, 'add', { a: 1, b: 1 });
    expect(texts(end)).toMatch(/MCP server "edge" is closed/);
    await expect(readMcpResource(edge, 'edge://notes.txt')).rejects.toThrow(McpConnectionError);
  });

  it('rejects a command that cannot start with a typed error', async () => {
    await expect(connectMcp({ name: 'nothing', command: '/no/such/mcp-server' })).rejects.toThrow(
      /Could not connect to the MCP server "nothing": failed to start "\/no\/such\/mcp-server"/,
    );
  });
});

/**
 * Reads until `done` holds — the server's own answer is the event waited on, however long a
 * busy machine takes (the test's timeout bounds it) — and returns that value.
 */
async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  while (!done(value)) {
    await new Promise((resolve) => setImmediate(resolve));
    value = await read();
  }
  return value;
}
