import { anthropic } from '@rxagent/anthropic';
import { runAgent, type AgentEvent, type AgentMessage, type ChatModel } from '@rxagent/core';
import { openai } from '@rxagent/openai';
import {
  collectEvents,
  startSseTestServer,
  type RecordedRequest,
  type SseScript,
  type SseTestServer,
} from '@rxagent/testing';
import { CHECKPOINT_HEADER } from './checkpoint.js';
import { contextEngine } from './context-engine.js';

const GOAL = 'Rename the config module.';
const SUMMARY =
  '## Goal\nRename the config module.\n## Progress\nRead 20 files.\n## Key decisions\n- Keep the old name as an alias.\n## Next steps\n- Edit src/config.ts.';

/** A prior transcript of 20 tool turns, each with a sizeable result. */
function priorTurns(): AgentMessage[] {
  const messages: AgentMessage[] = [{ role: 'user', content: GOAL, timestamp: 0 }];
  for (let i = 0; i < 20; i++) {
    messages.push(
      {
        role: 'assistant',
        content: [{ type: 'tool-call', id: `call_${i}`, name: 'read', args: { path: `src/f${i}.ts` } }],
        stopReason: 'tool-calls',
        usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, totalTokens: 0 },
        provider: 'openai',
        model: 'gpt-test',
        timestamp: 0,
      },
      {
        role: 'tool',
        toolCallId: `call_${i}`,
        toolName: 'read',
        content: [{ type: 'text', text: `f${i}: ${'y'.repeat(800)}` }],
        isError: false,
        timestamp: 0,
      },
    );
  }
  messages.push({ role: 'user', content: 'Now rename it.', timestamp: 0 });
  return messages;
}

interface Wire {
  name: string;
  model: (server: SseTestServer) => ChatModel;
  overflow: SseScript;
  text: (text: string) => SseScript;
  isSummaryRequest: (request: RecordedRequest) => boolean;
  sentText: (request: RecordedRequest) => string;
  messageCount: (request: RecordedRequest) => number;
}

const chatChunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  data: {
    id: 'c1',
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: finish }],
  },
});

const openaiWire: Wire = {
  name: 'OpenAI (400 context_length_exceeded)',
  model: (server) => openai('gpt-test', { apiKey: 'sk-test-key', baseURL: `${server.url}/v1` }),
  overflow: {
    status: 400,
    json: {
      error: {
        message:
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 131000 tokens.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'context_length_exceeded',
      },
    },
  },
  text: (text) => ({
    events: [
      chatChunk({ role: 'assistant', content: '' }),
      chatChunk({ content: text }),
      chatChunk({}, 'stop'),
      {
        data: {
          id: 'c1',
          object: 'chat.completion.chunk',
          created: 1,
          model: 'gpt-test',
          choices: [],
          usage: { prompt_tokens: 900, completion_tokens: 120, total_tokens: 1020 },
        },
      },
      { data: '[DONE]' },
    ],
  }),
  isSummaryRequest: (r) =>
    JSON.stringify((r.body as { messages: unknown[] }).messages[0]).includes('context checkpoints'),
  sentText: (r) => JSON.stringify((r.body as { messages: unknown[] }).messages),
  messageCount: (r) => (r.body as { messages: unknown[] }).messages.length,
};

const sse = (type: string, fields: Record<string, unknown> = {}) => ({
  event: type,
  data: { type, ...fields },
});

const anthropicWire: Wire = {
  name: 'Anthropic (400 "prompt is too long")',
  model: (server) => anthropic('claude-test', { apiKey: 'sk-ant-test-key', baseURL: server.url }),
  overflow: {
    status: 400,
    json: {
      type: 'error',
      error: { type: 'invalid_request_error', message: 'prompt is too long: 210512 tokens > 200000 maximum' },
    },
  },
  text: (text) => ({
    events: [
      sse('message_start', {
        message: {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          model: 'claude-test',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 900, output_tokens: 1 },
        },
      }),
      sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }),
      sse('content_block_stop', { index: 0 }),
      sse('message_delta', {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 120 },
      }),
      sse('message_stop'),
    ],
  }),
  isSummaryRequest: (r) =>
    JSON.stringify((r.body as { system?: unknown }).system ?? '').includes('context checkpoints'),
  sentText: (r) => JSON.stringify((r.body as { messages: unknown[] }).messages),
  messageCount: (r) => (r.body as { messages: unknown[] }).messages.length,
};

let server: SseTestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each([openaiWire, anthropicWire])('overflow recovery with the real SDK: $name', (wire) => {
  it('summarizes the older part with the run model, retries once and completes', async () => {
    server = await startSseTestServer((request, index) => {
      if (index === 0) return wire.overflow;
      return wire.text(wire.isSummaryRequest(request) ? SUMMARY : 'Renamed.');
    });
    const model = wire.model(server);
    const engine = contextEngine({ model, contextWindow: 200_000, keepRecentTokens: 300 });
    const events = await collectEvents(
      runAgent({ model, messages: priorTurns(), prompt: 'Go ahead.', contextManager: engine }),
    );
    const requests = server.requests;
    expect(requests).toHaveLength(3);
    expect(wire.isSummaryRequest(requests[1] as RecordedRequest)).toBe(true);
    expect(wire.sentText(requests[1] as RecordedRequest)).toContain('f0: yyy');
    const retried = requests[2] as RecordedRequest;
    expect(wire.sentText(retried)).toContain(CHECKPOINT_HEADER.slice(1, 30));
    expect(wire.sentText(retried)).toContain('Keep the old name as an alias.');
    expect(wire.sentText(retried)).toContain(GOAL);
    expect(wire.sentText(retried)).not.toContain('f0: yyy');
    expect(wire.messageCount(retried)).toBeLessThan(wire.messageCount(requests[0] as RecordedRequest));
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'retry')).toHaveLength(1);
    const compaction = events.find((e) => e.type === 'compaction');
    expect(compaction).toMatchObject({ strategy: 'overflow-summary', summarized: expect.any(Number) });
    expect(types.indexOf('summary-start')).toBeLessThan(types.indexOf('compaction'));
    const end = events.at(-1) as Extract<AgentEvent, { type: 'agent-end' }>;
    expect(end).toMatchObject({ type: 'agent-end', reason: 'completed' });
    // The summary call's usage counts in the run's totals.
    expect(end.usage.inputTokens).toBe(1_800);
  });

  it('fails with the provider error when a second overflow follows the recovery', async () => {
    server = await startSseTestServer((request) =>
      wire.isSummaryRequest(request) ? wire.text(SUMMARY) : wire.overflow,
    );
    const model = wire.model(server);
    const engine = contextEngine({ model, contextWindow: 200_000, keepRecentTokens: 300 });
    await expect(
      collectEvents(runAgent({ model, messages: priorTurns(), prompt: 'Go ahead.', contextManager: engine })),
    ).rejects.toMatchObject({ name: 'ContextOverflowError' });
    expect(server.requests).toHaveLength(3);
  });
});
