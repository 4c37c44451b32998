import { AuthError, runAgent, tool, type AgentEvent } from '@rxagent/core';
import { collectEvents } from '@rxagent/testing';
import { z } from 'zod';
import { textBlock, toolUseBlock, turn, withServer } from './anthropic-stream-fixtures.test.js';

const rateLimited = {
  status: 429,
  headers: { 'retry-after': '0.05' },
  json: { type: 'error', error: { type: 'rate_limit_error', message: 'Rate limited' } },
};

describe('anthropic() with runAgent', () => {
  it('runs a zod tool and sends its result back in the second request', async () => {
    const seen: string[] = [];
    const read = tool({
      name: 'read',
      description: 'Read a file',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => {
        seen.push(path);
        return `# contents of ${path}`;
      },
    });
    await withServer(
      (_request, index) =>
        index === 0
          ? turn(toolUseBlock(0, 'toolu_1', 'read', ['{"path":', ' "README.md"}']), 'tool_use')
          : turn(textBlock(0, 'It is a readme.')),
      async (model, server) => {
        const events = await collectEvents(
          runAgent({ model, prompt: 'What is in README.md?', tools: [read] }),
        );
        expect(seen).toEqual(['README.md']);
        const end = events[events.length - 1];
        expect(end).toMatchObject({ type: 'agent-end', reason: 'completed', steps: 2 });
        const first = server.requests[0]?.body as { tools: unknown[] };
        expect(first.tools).toEqual([
          {
            name: 'read',
            description: 'Read a file',
            input_schema: expect.objectContaining({ type: 'object', required: ['path'] }),
          },
        ]);
        const second = server.requests[1]?.body as { messages: { role: string; content: unknown[] }[] };
        expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
        expect(second.messages[2]?.content).toEqual([
          {
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'text', text: '# contents of README.md' }],
          },
        ]);
      },
    );
  });

  it('lets the core retry a 429 after its retry-after, the SDK never retrying itself', async () => {
    await withServer(
      (_request, index) => (index === 0 ? rateLimited : turn(textBlock(0, 'Hello'))),
      async (model, server) => {
        const events = await collectEvents(
          runAgent({ model, prompt: 'Hi', retryBackoff: { jitter: 0 }, maxRetries: 2 }),
        );
        const retries = events.filter((e): e is Extract<AgentEvent, { type: 'retry' }> => e.type === 'retry');
        expect(retries).toEqual([
          {
            type: 'retry',
            attempt: 1,
            delayMs: 50,
            error: expect.objectContaining({ name: 'RateLimitError', status: 429, retryAfterMs: 50 }),
          },
        ]);
        expect(events[events.length - 1]).toMatchObject({ type: 'agent-end', reason: 'completed' });
        expect(server.requests.map((r) => r.headers['x-stainless-retry-count'])).toEqual(['0', '0']);
      },
    );
  });

  it('fails the run with AuthError on 401 after a single request', async () => {
    await withServer(
      () => ({
        status: 401,
        json: { type: 'error', error: { type: 'authentication_error', message: 'bad key' } },
      }),
      async (model, server) => {
        const error = await collectEvents(runAgent({ model, prompt: 'Hi' })).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(AuthError.isInstance(error)).toBe(true);
        expect(server.requests).toHaveLength(1);
      },
    );
  });
});
