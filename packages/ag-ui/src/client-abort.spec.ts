import { HttpAgent } from '@ag-ui/client';
import { runAgent } from '@rxagent/core';
import { scriptedModel, textTurn } from '@rxagent/testing';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { finalize, tap } from 'rxjs';
import { agUINodeHandler } from './ag-ui-node-handler.js';
import { RxAgentAGUIAgent } from './rxagent-ag-ui-agent.js';

// A client that aborts (HttpAgent.abortRun) cancels the rxagent run on the server.
jest.setTimeout(30_000);

describe('RxAgentAGUIAgent over HTTP, client leaving', () => {
  it('stops the rxagent run when the client aborts mid-run', async () => {
    let stopped = false;
    let completed = false;
    const slow = new RxAgentAGUIAgent({
      start: ({ messages }) =>
        runAgent({
          model: scriptedModel([textTurn('a b c d e f g h', { chunks: 1 })], { latency: 50 }),
          prompt: messages,
        }).pipe(
          tap((e) => (completed ||= e.type === 'agent-end')),
          finalize(() => (stopped = true)),
        ),
    });
    const slowServer = createServer((req, res) => void agUINodeHandler(slow)(req, res));
    await new Promise<void>((resolve) => slowServer.listen(0, '127.0.0.1', resolve));
    try {
      const http = new HttpAgent({
        url: `http://127.0.0.1:${(slowServer.address() as AddressInfo).port}/`,
        threadId: 'slow',
        initialMessages: [{ id: 'u', role: 'user', content: 'go' }],
      });
      const firstDelta = new Promise<void>((resolve) =>
        http.subscribe({ onTextMessageContentEvent: () => resolve() }),
      );
      const running = http.runAgent().catch(() => undefined);
      await firstDelta;
      http.abortRun();
      await running;
      await new Promise<void>((resolve) => {
        const check = () => (stopped ? resolve() : setImmediate(check));
        check();
      });
      expect(stopped).toBe(true);
      expect(completed).toBe(false); // cancelled, not run to its end
      expect(slow.waitingThreads).toEqual([]);
    } finally {
      slowServer.closeAllConnections();
      await new Promise<void>((resolve) => slowServer.close(() => resolve()));
    }
  });
});
