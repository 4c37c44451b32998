import { runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { filter, firstValueFrom, VirtualTimeScheduler } from 'rxjs';
import { connectMcp } from './connect-mcp.js';
import type { McpConnection } from './mcp-connection.js';
import { edgeStdio, startEverythingHttp } from './test-servers.test.js';

// Servers are real processes: starting one takes seconds on a loaded machine.
jest.setTimeout(30_000);

const ends = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

async function call(connection: McpConnection, name: string, args: unknown) {
  const model = scriptedModel([toolCallTurn({ name, args }), textTurn('done')]);
  return ends(await collectEvents(runAgent({ model, prompt: 'go', tools: connection.tools })))[0];
}

describe('reconnecting', () => {
  it('waits for the backoff on the given scheduler before restarting the process', async () => {
    const scheduler = new VirtualTimeScheduler();
    const edge = await connectMcp(edgeStdio({ scheduler, reconnect: { initialDelayMs: 1000 } }));
    try {
      await call(edge, 'crash', {});
      expect(edge.status).toBe('reconnecting');
      // Nothing restarts until the scheduler's clock passes the first delay.
      expect(scheduler.actions.map((a) => a.delay)).toEqual([1000]);
      const connected = firstValueFrom(edge.status$.pipe(filter((s) => s === 'connected')));
      scheduler.flush();
      await connected;
      expect(texts(await call(edge, 'add', { a: 3, b: 4 }))).toBe('7');
    } finally {
      await edge.close();
    }
  }, 30_000);

  it('drops a pending reconnect on close, leaving no timer', async () => {
    const scheduler = new VirtualTimeScheduler();
    const edge = await connectMcp(edgeStdio({ scheduler, reconnect: { initialDelayMs: 1000 } }));
    await call(edge, 'crash', {});
    expect(scheduler.actions).toHaveLength(1);
    await edge.close();
    expect(scheduler.actions.filter((a) => !a.closed)).toHaveLength(0);
    expect(edge.status).toBe('closed');
  }, 30_000);

  it('over HTTP: a server that went away fails the call, and a server back on the URL is reconnected', async () => {
    const first = await startEverythingHttp();
    const remote = await connectMcp({
      name: 'remote',
      url: first.url,
      reconnect: { initialDelayMs: 100, maxAttempts: 20 },
    });
    try {
      await first.stop();
      const failed = await call(remote, 'echo', { message: 'x' });
      expect(failed?.isError).toBe(true);
      expect(texts(failed)).toMatch(/The MCP server "remote" could not be reached for "echo"/);
      expect(remote.status).toBe('reconnecting');
      const second = await startEverythingHttp(Number(new URL(first.url).port));
      try {
        await firstValueFrom(remote.status$.pipe(filter((s) => s === 'connected')));
        expect(texts(await call(remote, 'echo', { message: 'back' }))).toBe('Echo: back');
      } finally {
        await remote.close();
        await second.stop();
      }
    } finally {
      await remote.close();
    }
  }, 60_000);
});
