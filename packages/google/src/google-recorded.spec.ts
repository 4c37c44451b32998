import type { SseTestServer } from '@rxagent/testing';
import {
  collect,
  finishOf,
  hi,
  recorded,
  scriptedServer,
  testModel,
} from './test-support/google-fixtures.test.js';

// Published recordings of real Gemini streams (sources in __fixtures__/README.md), replayed
// through the official SDK, whole and split every 61 bytes (every 3 bytes for the smallest:
// the test server sleeps a millisecond between writes).

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function replay(file: string, chunkSize?: number) {
  server = await scriptedServer({ events: recorded(file), ...(chunkSize && { chunkSize }) });
  const events = await collect(testModel(server).stream(hi));
  await server.close();
  server = undefined;
  return { events, ...finishOf(events) };
}

const signature = (content: { type: string; kind?: string }[]) =>
  content.filter((p) => p.type === 'provider' && p.kind === 'thought_signature').length;

describe.each([undefined, 61])('recorded Gemini streams (split every %s bytes)', (chunkSize) => {
  it('text with the signature on a final empty part (gemini-3-pro-preview)', async () => {
    const { reason, message } = await replay('google-text.chunks.txt', chunkSize);
    expect(reason).toBe('stop');
    expect(message.content[0]).toEqual({
      type: 'text',
      text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
    });
    expect(signature(message.content)).toBe(1);
    expect(message.usage).toMatchObject({ inputTokens: 9, outputTokens: 23 + 185, reasoningTokens: 185 });
    expect(message.model).toBe('gemini-3-pro-preview');
  });

  it('a function call with its signature, then an empty text part and STOP', async () => {
    const { reason, message } = await replay('google-tool-call-gemini3.chunks.txt', chunkSize);
    expect(reason).toBe('tool-calls');
    expect(message.content.map((p) => p.type)).toEqual(['provider', 'tool-call']);
    expect(message.content[1]).toMatchObject({ name: 'weather', args: { location: 'San Francisco' } });
  });

  it('streamed arguments of two calls (streamFunctionCallArguments)', async () => {
    const { message } = await replay('google-stream-tool-call-arguments.chunks.txt', chunkSize);
    expect(
      message.content.filter((p) => p.type === 'tool-call').map((p) => p.type === 'tool-call' && p.args),
    ).toEqual([{ location: 'Boston' }, { location: 'San Francisco' }]);
  });

  it('a no-argument call among streamed ones, after thoughts', async () => {
    const { reason, message } = await replay('google-stream-no-args-tool-call.chunks.txt', chunkSize);
    expect(reason).toBe('tool-calls');
    expect(message.content[0]).toMatchObject({ type: 'thinking' });
    const calls = message.content.flatMap((p) => (p.type === 'tool-call' ? [[p.name, p.args]] : []));
    expect(calls).toEqual([
      ['read_theme', {}],
      ['read_screen', { id: 'A' }],
      ['read_screen', { id: 'B' }],
      ['read_screen', { id: 'C' }],
    ]);
  });

  it('array arguments whose last call arrives without its terminal chunk', async () => {
    const { reason, message } = await replay(
      'google-stream-tool-call-array-arguments-missing-terminal-function-call.chunks.txt',
      chunkSize,
    );
    expect(reason).toBe('tool-calls');
    expect(message.content.find((p) => p.type === 'tool-call')).toMatchObject({
      name: 'writeItems',
      args: {
        operations: [
          { action: 'add', description: 'Fresh red apple', itemid: 'apple_001', price: 0.5 },
          { action: 'add', description: 'Ripe yellow banana', itemid: 'banana_001', price: 0.3 },
        ],
      },
    });
  });

  it('nested object and array arguments (Vertex)', async () => {
    const { message } = await replay(
      'google-vertex-stream-tool-call-arguments-nested.1.chunks.txt',
      chunkSize,
    );
    const call = message.content.find((p) => p.type === 'tool-call');
    const recipe = (call?.type === 'tool-call' ? call.args : {}) as {
      recipe: { name: string; ingredients: { name: string; amount: string }[]; steps: string[] };
    };
    expect(recipe.recipe.name).toBe('Lasagna');
    expect(recipe.recipe.ingredients).toHaveLength(10);
    expect(recipe.recipe.ingredients[9]).toEqual({ amount: '1/2 tsp', name: 'Pepper' });
    expect(recipe.recipe.steps[1]).toBe(
      'Cook lasagna noodles according to package directions, drain and set aside.',
    );
    expect(recipe.recipe.steps[4]).toBe('In a 9x13 baking dish, spread a thin layer of meat sauce.');
  });

  it('reasoning models: the other recordings end cleanly too', async () => {
    for (const file of [
      'google-reasoning.chunks.txt',
      'google-reasoning-gemini3.chunks.txt',
      'google-tool-call.chunks.txt',
    ]) {
      const { reason } = await replay(file, chunkSize);
      expect(['stop', 'tool-calls']).toContain(reason);
    }
  });
});

it('reads a recorded stream split every 3 bytes', async () => {
  const { message } = await replay('google-text.chunks.txt', 3);
  expect(message.content[0]).toEqual({
    type: 'text',
    text: 'There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y',
  });
});
