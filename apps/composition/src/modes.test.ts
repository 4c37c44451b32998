import { Agent, MessageQueue, runAgent, type AgentEvent, type ChatModel } from '@rxagent/core';
import { runResult } from '@rxagent/core/streams';
import { proxyModel, serveModel } from '@rxagent/proxy';
import { scriptedModel } from '@rxagent/testing';
import { tap } from 'rxjs';
import { CELL_PROMPT, type Capability, type CellEnv, type CellRun } from './cell-types.test.js';
import { runInSubrun } from './subrun-mode.test.js';

// How each mode runs a cell. The durable mode is packages/durable/src/composition.spec.ts.

/** A way of running an agent: one column of the matrix. */
export type Mode = (cell: Capability, env: CellEnv) => Promise<CellRun>;

/** Calls `act` once, at the first event `at` accepts. */
function once(at: ((e: AgentEvent) => boolean) | undefined, act: () => void): (e: AgentEvent) => void {
  let done = false;
  return (e) => {
    if (done || !at?.(e)) return;
    done = true;
    act();
  };
}

/** A model as the run sees it, and how to let it go after the run. */
interface Served {
  model: ChatModel;
  close(): Promise<void>;
}

const local = (model: ChatModel): Promise<Served> =>
  Promise.resolve({ model, close: () => Promise.resolve() });

/** `runAgent` with the cell's model, as `serve` gives it to the run (the proxy mode serves it). */
async function viaRunAgent(cell: Capability, env: CellEnv, serve = local): Promise<CellRun> {
  const model = scriptedModel(cell.turns());
  const steering = new MessageQueue();
  const followUps = new MessageQueue();
  if (cell.followUp) followUps.push(cell.followUp);
  const steer = once(cell.steer?.at, () => steering.push(cell.steer?.text ?? ''));
  const events: AgentEvent[] = [];
  const served = await serve(model);
  try {
    const result = await runResult(
      runAgent({
        model: served.model,
        prompt: CELL_PROMPT,
        ...cell.config?.(env),
        steering$: steering,
        followUp$: followUps,
        ...(cell.approve ? { approver: () => ({ approved: true }) } : {}),
      }).pipe(
        tap((e) => {
          events.push(e);
          steer(e);
        }),
      ),
    );
    return { ...result, events, requests: model.requests };
  } finally {
    await served.close();
  }
}

/** An `Agent`: approvals with `agent.approve`, messages with `agent.steer` / `agent.followUp`. */
async function viaAgent(cell: Capability, env: CellEnv): Promise<CellRun> {
  const model = scriptedModel(cell.turns());
  const agent = new Agent({ model, ...cell.config?.(env) });
  const events: AgentEvent[] = [];
  const steer = once(cell.steer?.at, () => expect(agent.steer(cell.steer?.text ?? '')).toBe('steered'));
  const followUp = once(
    (e) => cell.followUp !== undefined && e.type === 'agent-start',
    () => expect(agent.followUp(cell.followUp ?? '')).toBe('queued'),
  );
  agent.subscribe((e) => {
    events.push(e);
    steer(e);
    followUp(e);
    if (cell.approve && e.type === 'approval-request') {
      const id = e.toolCallId;
      void Promise.resolve().then(() => expect(agent.approve(id)).toBe(true));
    }
  });
  try {
    const result = await agent.prompt(CELL_PROMPT);
    return { ...result, events, requests: model.requests };
  } finally {
    agent.dispose();
  }
}

const PROXY_TOKEN = 'composition-proxy-token';

/** The model behind a real `serveModel` server on 127.0.0.1, called by a `proxyModel` over HTTP. */
async function behindProxy(model: ChatModel): Promise<Served> {
  const server = await serveModel(model, { token: PROXY_TOKEN });
  return { model: proxyModel({ url: server.url, token: PROXY_TOKEN }), close: () => server.close() };
}

/** The non-durable modes, by name. */
export const MODES: Record<string, Mode> = {
  runAgent: (cell, env) => viaRunAgent(cell, env),
  Agent: viaAgent,
  'sub-run': runInSubrun,
  'proxy model': (cell, env) => viaRunAgent(cell, env, behindProxy),
};
