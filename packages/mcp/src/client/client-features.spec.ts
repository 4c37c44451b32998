import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent, runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { filter, firstValueFrom, map } from 'rxjs';
import { connectMcp } from '../connect-mcp.js';
import type { McpConnection } from '../mcp-connection.js';
import type { McpStdioServer } from '../mcp-server-config.js';

jest.setTimeout(30_000);

const SERVER = path.join(__dirname, '..', 'fixtures', 'client-features-server.mjs');
const asking = (extra: Partial<McpStdioServer> = {}): McpStdioServer => ({
  name: 'asking',
  command: process.execPath,
  args: [SERVER],
  cwd: path.join(__dirname, '..', '..'),
  ...extra,
});

const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

async function run(connection: McpConnection, tool: string, extra: Record<string, unknown> = {}, args = {}) {
  const model = scriptedModel([toolCallTurn({ name: tool, args }), textTurn('done')]);
  const events: AgentEvent[] = await collectEvents(
    runAgent({ model, prompt: 'go', tools: connection.tools, ...extra }),
  );
  const end = events.find((e): e is ToolEndEvent => e.type === 'tool-end');
  return { events, end, text: texts(end), model };
}

describe('client features are declared only when configured', () => {
  it('declares nothing by default: the server cannot elicit, sample or list roots', async () => {
    const plain = await connectMcp(asking());
    try {
      expect((await run(plain, 'capabilities')).text).toBe('{}');
      expect((await run(plain, 'book')).text).toMatch(
        /^failed: .*(does not support|not supported|Method not found)/i,
      );
      expect((await run(plain, 'summarize')).text).toMatch(
        /^failed: .*(does not support|not supported|Method not found)/i,
      );
      expect((await run(plain, 'roots')).text).toMatch(
        /^failed: .*(does not support|not supported|Method not found)/i,
      );
    } finally {
      await plain.close();
    }
  });

  it('declares elicitation, sampling and roots when given', async () => {
    const model = scriptedModel([textTurn('unused')]);
    const full = await connectMcp(asking({ elicitation: true, sampling: { model }, roots: ['/tmp'] }));
    try {
      expect(JSON.parse((await run(full, 'capabilities')).text)).toEqual({
        elicitation: { form: {} },
        sampling: {},
        roots: { listChanged: true },
      });
    } finally {
      await full.close();
    }
  });
});

describe('elicitation through the run', () => {
  let connection: McpConnection;
  beforeAll(async () => {
    connection = await connectMcp(asking({ elicitation: true }));
  });
  afterAll(() => connection.close());

  it('waits like an approval: Agent.respond answers, the form’s defaults fill the rest', async () => {
    const model = scriptedModel([toolCallTurn({ name: 'book', args: {} }), textTurn('booked')]);
    const agent = new Agent({ model, tools: connection.tools });
    const pending = firstValueFrom(
      agent.state$.pipe(
        map((s) => s.pendingElicitations[0]),
        filter((p) => p !== undefined),
      ),
    );
    const done = agent.prompt('Book a table');
    const request = await pending;
    expect(request).toMatchObject({ source: 'asking', toolName: 'book', message: 'How many guests?' });
    expect(request?.requestedSchema.required).toEqual(['guests']);
    agent.respond(request.elicitationId, { guests: 4 });
    await done;
    const result = agent.messages.find((m) => m.role === 'tool');
    expect(JSON.parse((result?.content[0] as { text: string }).text)).toEqual({
      action: 'accept',
      content: { guests: 4, terrace: false, name: 'Guest' },
    });
  });

  it('declines when nobody can answer, and when the values do not fit (the run goes on)', async () => {
    const alone = await run(connection, 'book');
    expect(JSON.parse(alone.text)).toEqual({ action: 'decline' });
    expect(alone.events.find((e) => e.type === 'elicitation-end')).toMatchObject({ action: 'decline' });
    const wrong = await run(connection, 'book', {
      elicit: () => ({ action: 'accept', content: { guests: 0 } }),
    });
    expect(JSON.parse(wrong.text)).toEqual({ action: 'decline' });
    expect(wrong.events.at(-1)).toMatchObject({ type: 'agent-end', reason: 'completed' });
  });

  it('answers cancel when the call ends before anyone answers (its timeout)', async () => {
    const { text, events } = await run(connection, 'book', {
      toolTimeoutMs: 300,
      elicit: () => new Promise(() => undefined),
    });
    expect(text).toMatch(/timed out/);
    expect(events.filter((e) => e.type === 'elicitation-request')).toHaveLength(1);
  });
});

describe('sampling with the application’s model', () => {
  it('answers with the configured model (not the run’s), capping maxTokens, counting its usage', async () => {
    const sampler = scriptedModel([
      textTurn('A short summary.', { usage: { inputTokens: 7, outputTokens: 5 } }),
    ]);
    const connection = await connectMcp(asking({ sampling: { model: sampler, maxTokens: 256 } }));
    try {
      const { text, model, events } = await run(connection, 'summarize');
      expect(JSON.parse(text)).toMatchObject({
        role: 'assistant',
        content: { type: 'text', text: 'A short summary.' },
        stopReason: 'endTurn',
      });
      expect(sampler.requests[0]).toMatchObject({ system: 'Summarize.', maxTokens: 256 });
      expect(model.requests).toHaveLength(2); // the run's own calls only
      const end = events.at(-1);
      expect(end).toMatchObject({ type: 'agent-end', usage: { inputTokens: expect.any(Number) } });
      expect((end as { usage: { outputTokens: number } }).usage.outputTokens).toBeGreaterThanOrEqual(5);
    } finally {
      await connection.close();
    }
  });

  it('refuses a request over maxRequestBytes, and one the person rejects', async () => {
    const sampler = scriptedModel([textTurn('never')]);
    const connection = await connectMcp(
      asking({ sampling: { model: sampler, maxRequestBytes: 1000, needsApproval: true } }),
    );
    try {
      const big = await run(connection, 'summarize', { approver: () => true }, { size: 5000 });
      expect(big.text).toMatch(/over the limit of 1000 \(sampling\.maxRequestBytes\)/);
      const rejected = await run(connection, 'summarize', {
        approver: () => ({ approved: false, reason: 'Not now.' }),
      });
      expect(rejected.text).toMatch(/Sampling was refused: Not now/);
      expect(rejected.events.find((e) => e.type === 'approval-request')).toMatchObject({
        toolName: 'asking:sampling',
      });
      expect(sampler.requests).toHaveLength(0);
    } finally {
      await connection.close();
    }
  });
});

describe('roots', () => {
  it('offers the configured roots and tells the server when they change', async () => {
    const connection = await connectMcp(
      asking({ roots: ['/work/project', { uri: 'file:///data', name: 'data' }] }),
    );
    try {
      expect(JSON.parse((await run(connection, 'roots')).text)).toEqual({
        roots: [{ uri: pathToFileURL('/work/project').href }, { uri: 'file:///data', name: 'data' }],
        changed: 0,
      });
      await connection.setRoots(['/elsewhere']);
      await expect(
        waitFor(
          async () => JSON.parse((await run(connection, 'roots')).text) as { changed: number },
          (r) => r.changed === 1,
        ),
      ).resolves.toEqual({ roots: [{ uri: 'file:///elsewhere' }], changed: 1 });
    } finally {
      await connection.close();
    }
  });

  it('refuses a root that is not a file', async () => {
    await expect(connectMcp(asking({ roots: ['relative/dir'] }))).rejects.toThrow(
      /neither an absolute path nor a file:\/\/ URI/,
    );
  });
});

async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  let value = await read();
  for (let i = 0; i < 50 && !done(value); i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    value = await read();
  }
  return value;
}
