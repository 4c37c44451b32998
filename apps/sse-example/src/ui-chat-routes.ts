import type { AgentEvent, Approver } from '@rxagent/core';
import { toUIMessageStreamResponse } from '@rxagent/core/streams';
import type { Hono } from 'hono';
import { finalize, type Observable } from 'rxjs';
import { ChatApprovals } from './chat-run.js';

/** Starts a chat's run for a prompt, with the approver that waits for the page's decisions. */
export type StartChatRun = (prompt: string, approver: Approver) => Observable<AgentEvent>;

interface ChatRequest {
  id?: unknown;
  messages?: { role?: unknown; parts?: { type?: unknown; text?: unknown }[] }[];
}

/** The text of the last user message of a `useChat` request (its `messages` are UI messages). */
function lastUserText(body: ChatRequest): string | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user' || !Array.isArray(message.parts)) continue;
    const text = message.parts
      .map((part) => (part.type === 'text' && typeof part.text === 'string' ? part.text : ''))
      .join('');
    return text.trim() ? text : undefined;
  }
  return undefined;
}

/**
 * The AI SDK routes on a Hono app, for `useChat` (its default transport):
 * `POST /api/chat` runs the chat's last user message and answers with
 * `toUIMessageStreamResponse(run$)`; `POST /api/chat/:id/approvals {"id", "approved", "reason"}`
 * decides a pending tool call (the page's answer to a `tool-approval-request` part) — the run
 * waits on the server meanwhile, and its stream goes on with the decision.
 *
 * @example
 * uiChatRoutes(new Hono(), (prompt, approver) => runAgent({ model, tools, prompt, approver }));
 */
export function uiChatRoutes(app: Hono, startRun: StartChatRun): Hono {
  const chats = new Map<string, ChatApprovals>();
  app.post('/api/chat', async (c) => {
    const body = (await c.req.json().catch(() => ({}))) as ChatRequest;
    const prompt = lastUserText(body);
    if (prompt === undefined) return c.json({ error: 'Send useChat messages ending with a user text.' }, 400);
    const chatId = typeof body.id === 'string' ? body.id : 'chat';
    const approvals = new ChatApprovals();
    chats.set(chatId, approvals);
    const run$ = startRun(prompt, approvals.approver).pipe(
      finalize(() => {
        if (chats.get(chatId) === approvals) chats.delete(chatId);
      }),
    );
    return toUIMessageStreamResponse(run$);
  });
  app.post('/api/chat/:chatId/approvals', async (c) => {
    const approvals = chats.get(c.req.param('chatId'));
    const body = (await c.req.json().catch(() => ({}))) as {
      id?: unknown;
      approved?: unknown;
      reason?: unknown;
    };
    if (!approvals) return c.json({ error: `No chat ${c.req.param('chatId')}.` }, 404);
    if (typeof body.id !== 'string' || typeof body.approved !== 'boolean') {
      return c.json({ error: 'Send {"id": "<approvalId>", "approved": true | false}.' }, 400);
    }
    approvals.decide(body.id, body.approved, typeof body.reason === 'string' ? body.reason : undefined);
    return c.json({ ok: true });
  });
  return app;
}
