import { runAgent, type AgentEvent } from '@rxagent/core';
import type { ToolEndEvent, ToolUpdateEvent } from '@rxagent/core/events';
import { collectEvents, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import { connectMcp } from './connect-mcp.js';
import type { McpConnection } from './mcp-connection.js';
import { mcpPromptMessages } from './prompt-messages.js';
import { readMcpResource } from './read-resource.js';
import { everythingStdio } from './test-servers.test.js';

// Servers are real processes: starting one takes seconds on a loaded machine.
jest.setTimeout(30_000);

const ends = (events: AgentEvent[]) => events.filter((e): e is ToolEndEvent => e.type === 'tool-end');
const texts = (e: ToolEndEvent | undefined) =>
  (e?.result.content ?? []).map((p) => (p.type === 'text' ? p.text : `<${p.type}>`)).join('\n');

async function callThroughRun(connection: McpConnection, name: string, args: unknown) {
  const model = scriptedModel([toolCallTurn({ name, args }), textTurn('done')]);
  const events = await collectEvents(runAgent({ model, prompt: 'go', tools: connection.tools }));
  return { events, end: ends(events)[0], model };
}

describe('server-everything over stdio', () => {
  let everything: McpConnection;
  beforeAll(async () => {
    everything = await connectMcp(everythingStdio());
  }, 30_000);
  afterAll(() => everything.close());

  it('lists the server tools unprefixed, with descriptions, schemas and annotations', () => {
    const names = everything.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'trigger-long-running-operation']),
    );
    const sum = everything.tools.find((t) => t.name === 'get-sum');
    expect(sum?.description).toBe('Returns the sum of two numbers');
    expect(sum?.mcp).toMatchObject({
      server: 'everything',
      name: 'get-sum',
      annotations: { readOnlyHint: true, destructiveHint: false },
    });
    expect(sum?.parameters).toMatchObject({
      kind: 'json-schema',
      schema: { type: 'object', required: ['a', 'b'] },
    });
    expect(everything.skipped).toEqual([]);
  });

  it('calls echo and get-sum inside a run, and the model reads their text', async () => {
    const echo = await callThroughRun(everything, 'echo', { message: 'hello mcp' });
    expect(echo.end).toMatchObject({ isError: false });
    expect(texts(echo.end)).toBe('Echo: hello mcp');
    const sum = await callThroughRun(everything, 'get-sum', { a: 2, b: 40 });
    expect(texts(sum.end)).toBe('The sum of 2 and 40 is 42.');
    expect(sum.model.requests[0]?.tools?.map((t) => t.name)).toContain('get-sum');
  });

  it('turns MCP progress notifications into tool-update progress', async () => {
    const { events, end } = await callThroughRun(everything, 'trigger-long-running-operation', {
      duration: 0.3,
      steps: 3,
    });
    const progress = events.filter((e): e is ToolUpdateEvent => e.type === 'tool-update');
    expect(progress.length).toBeGreaterThanOrEqual(1);
    expect(progress[0]).toMatchObject({ kind: 'progress', progress: { progress: 1, total: 3 } });
    expect(texts(end)).toMatch(/Long running operation completed/);
  });

  it('passes images through as image parts', async () => {
    const { end } = await callThroughRun(everything, 'get-tiny-image', {});
    const image = end?.result.content.find((p) => p.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(
      Buffer.from((image as { data: string }).data, 'base64')
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
  });

  it('returns structured content validated against the output schema', async () => {
    const { end } = await callThroughRun(everything, 'get-structured-content', { location: 'Chicago' });
    expect(end?.isError).toBe(false);
    expect(JSON.parse(texts(end))).toEqual({
      temperature: expect.any(Number),
      conditions: expect.any(String),
      humidity: expect.any(Number),
    });
    expect(everything.tools.find((t) => t.name === 'get-structured-content')?.mcp.outputSchema).toMatchObject(
      {
        type: 'object',
      },
    );
  });

  it('maps resource links and embedded resources to text the model reads', async () => {
    const links = await callThroughRun(everything, 'get-resource-links', { count: 2 });
    expect(texts(links.end)).toMatch(/Resource link: .+ <demo:\/\/resource\/dynamic\/[a-z]+\/1>/);
    const embedded = await callThroughRun(everything, 'get-resource-reference', {
      resourceType: 'Text',
      resourceId: 3,
    });
    expect(texts(embedded.end)).toMatch(
      /Resource demo:\/\/resource\/dynamic\/text\/3 \(text\/plain\):\nResource 3:/,
    );
  });

  it('reads a resource and turns a prompt into messages', async () => {
    const resource = await readMcpResource(everything, 'demo://resource/dynamic/text/2');
    expect(resource.parts[0]).toMatchObject({
      type: 'text',
      text: expect.stringMatching(/^Resource demo:\/\/resource\/dynamic\/text\/2/),
    });
    const messages = await mcpPromptMessages(everything, 'simple-prompt');
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: expect.any(String) }], timestamp: expect.any(Number) },
    ]);
  });
});
