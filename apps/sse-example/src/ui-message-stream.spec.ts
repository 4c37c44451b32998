import type { AgentEvent, Approver } from '@rxagent/core';
import { NetworkError, runAgent, tool } from '@rxagent/core';
import { toUIMessageStream } from '@rxagent/core/streams';
import { errorTurn, scriptedModel, textTurn, toolCallTurn } from '@rxagent/testing';
import type { UIMessage } from 'ai';
import { finalize, tap, type Observable } from 'rxjs';
import { z } from 'zod';
import { chatRun } from './chat-run.js';
import { startHonoServer } from './hono-app.js';
import { loadAi } from './load-ai.testkit.js';
import { RunHubs } from './run-hubs.js';
import { scriptedRun } from './scripted-run.js';

// toUIMessageStream read by the real AI SDK 7 reader (`readUIMessageStream`), in process and
// over HTTP through its own chat transport (`DefaultChatTransport`, what useChat uses).
jest.setTimeout(60_000);

let ai: Awaited<ReturnType<typeof loadAi>>;
beforeAll(async () => {
  ai = await loadAi();
});

const rejectDeletes: Approver = () => ({ approved: false, reason: 'Not now' });

async function lastMessage(
  stream: ReadableStream<unknown>,
  onError?: (e: unknown) => void,
): Promise<UIMessage> {
  let last: UIMessage | undefined;
  for await (const message of ai.readUIMessageStream({
    stream: stream as Parameters<typeof ai.readUIMessageStream>[0]['stream'],
    ...(onError ? { onError } : {}),
  })) {
    last = message;
  }
  if (!last) throw new Error('The reader produced no message.');
  return last;
}

const partTypes = (message: UIMessage) => message.parts.map((p) => p.type);

describe('toUIMessageStream read by the AI SDK (readUIMessageStream)', () => {
  it('gives one assistant message: reasoning, tool parts with input and output, a rejected approval, text, steps', async () => {
    const message = await lastMessage(toUIMessageStream(chatRun('What is an observable?', rejectDeletes, 0)));
    expect(message.role).toBe('assistant');
    expect(partTypes(message)).toEqual([
      'step-start',
      'reasoning',
      'tool-look_up',
      'data-rxagent-tool-outcome',
      'data-rxagent-step',
      'step-start',
      'text',
      'tool-delete_notes',
      'data-rxagent-tool-outcome',
      'data-rxagent-step',
    ]);
    const [, reasoning, lookUp, , , , tidy, deleteNotes, outcome] = message.parts as Record<
      string,
      unknown
    >[];
    expect(reasoning).toMatchObject({ text: 'The user asks about observables.', state: 'done' });
    expect(lookUp).toEqual(
      expect.objectContaining({
        toolCallId: 'call_look_up',
        state: 'output-available',
        input: { word: 'observable' },
        output: 'observable: a value over time',
        toolMetadata: { outcome: 'executed' },
      }),
    );
    expect(tidy).toMatchObject({ text: 'Tidying up first.', state: 'done' });
    // The approval part: asked, answered no, and never run (output-denied).
    expect(deleteNotes).toEqual(
      expect.objectContaining({
        toolCallId: 'call_delete_notes',
        state: 'output-denied',
        input: { topic: 'observables' },
        approval: { id: 'call_delete_notes', approved: false, reason: 'Not now' },
      }),
    );
    // tool-output-denied has no metadata field: the typed outcome travels in a data part.
    expect(outcome).toMatchObject({
      id: 'call_delete_notes',
      data: { toolCallId: 'call_delete_notes', toolName: 'delete_notes', outcome: 'rejected' },
    });
    // Every call of the turn rejected: the run stops (rxagent's rule), and says why.
    expect(message.metadata).toEqual({
      rxagent: expect.objectContaining({ reason: 'rejected', steps: 2 }) as unknown,
    });
  });

  it('shows each state of an approval as the run waits for it', async () => {
    const states: string[] = [];
    let decide: ((approved: boolean) => void) | undefined;
    const approver: Approver = () => new Promise<boolean>((resolve) => (decide = resolve));
    for await (const message of ai.readUIMessageStream({
      stream: toUIMessageStream(chatRun('hi', approver, 0)),
    })) {
      const part = message.parts.find((p) => p.type === 'tool-delete_notes') as { state: string } | undefined;
      if (part && states[states.length - 1] !== part.state) states.push(part.state);
      if (part?.state === 'approval-requested') decide?.(true);
    }
    expect(states).toEqual([
      'input-available',
      'approval-requested',
      'approval-responded',
      'output-available',
    ]);
    const last = await lastMessage(toUIMessageStream(chatRun('hi', () => true, 0)));
    expect(last.parts.at(-2)).toMatchObject({
      type: 'text',
      text: 'You asked: "hi". An observable is a value over time.',
    });
  });

  it('maps typed tool outcomes: a tool that throws is output-error with its text and outcome', async () => {
    const fail = tool({
      name: 'fail',
      description: 'Always fails',
      parameters: z.object({}),
      execute: () => {
        throw new Error('disk full');
      },
    });
    const model = scriptedModel([toolCallTurn({ name: 'fail' }), textTurn('Sorry.')]);
    const message = await lastMessage(toUIMessageStream(runAgent({ model, tools: [fail], prompt: 'go' })));
    const part = message.parts.find((p) => p.type === 'tool-fail') as Record<string, unknown>;
    expect(part).toEqual(
      expect.objectContaining({ state: 'output-error', toolMetadata: { outcome: 'failed' } }),
    );
    expect(String(part.errorText)).toContain('disk full');
  });

  it('drops what a failed model call streamed when it is retried (reset-step; the retry itself is a transient data part)', async () => {
    const model = scriptedModel([
      errorTurn(new NetworkError('socket hang up'), [{ type: 'text-delta', index: 0, text: 'Half an ans' }]),
      textTurn('The whole answer.'),
    ]);
    const run$ = runAgent({ model, prompt: 'go', retryBackoff: { initialDelayMs: 1, jitter: 0 } });
    const message = await lastMessage(toUIMessageStream(run$));
    const texts = message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    expect(texts).toEqual(['The whole answer.']);
    expect(partTypes(message)).toEqual(['step-start', 'text', 'data-rxagent-step']);
  });

  it('ends a failed run with an error chunk (name and message, no stack) after what was streamed', async () => {
    const model = scriptedModel([
      errorTurn(Object.assign(new Error('upstream exploded'), { name: 'ProviderError' })),
    ]);
    const errors: string[] = [];
    const run$: Observable<AgentEvent> = runAgent({ model, prompt: 'go', maxRetries: 0 });
    const message = await lastMessage(toUIMessageStream(run$), (e) => errors.push((e as Error).message));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^ProviderError: .*upstream exploded/);
    expect(errors[0]).not.toMatch(/\n\s+at /);
    expect(message.role).toBe('assistant');
  });

  it('cancels the run when the reader cancels the stream', async () => {
    const seen: string[] = [];
    let finalized = false;
    const run$ = scriptedRun('hi', 20).pipe(
      tap((event) => seen.push(event.type)),
      finalize(() => (finalized = true)),
    );
    const reader = toUIMessageStream(run$).getReader();
    expect((await reader.read()).value).toMatchObject({ type: 'start' });
    await reader.cancel();
    expect(finalized).toBe(true);
    expect(seen).not.toContain('agent-end');
  });
});

describe('toUIMessageStreamResponse over HTTP, read by the AI SDK chat transport', () => {
  it('streams a chat route to DefaultChatTransport, the same message as in process', async () => {
    const hubs = new RunHubs((prompt) => scriptedRun(prompt, 0));
    const server = await startHonoServer(hubs, { chat: (prompt) => chatRun(prompt, rejectDeletes, 0) });
    try {
      const transport = new ai.DefaultChatTransport({ api: `${server.url}/api/chat` });
      const stream = await transport.sendMessages({
        chatId: 'chat-1',
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'What is an observable?' }] }],
      });
      const overHttp = await lastMessage(stream);
      const inProcess = await lastMessage(
        toUIMessageStream(chatRun('What is an observable?', rejectDeletes, 0)),
      );
      const strip = (m: UIMessage) =>
        JSON.parse(JSON.stringify({ ...m, id: undefined, metadata: undefined })) as unknown;
      expect(strip(overHttp)).toEqual(strip(inProcess));
      expect(partTypes(overHttp)).toContain('tool-delete_notes');
    } finally {
      hubs.stopAll();
      await server.close();
    }
  });

  it('answers a chat request without a user message with 400', async () => {
    const hubs = new RunHubs((prompt) => scriptedRun(prompt, 0));
    const server = await startHonoServer(hubs, { chat: (prompt) => chatRun(prompt, rejectDeletes, 0) });
    try {
      const response = await fetch(`${server.url}/api/chat`, { method: 'POST', body: '{"messages":[]}' });
      expect(response.status).toBe(400);
    } finally {
      await server.close();
    }
  });
});
