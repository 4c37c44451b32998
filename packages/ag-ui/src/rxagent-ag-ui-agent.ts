import { AbstractAgent, type AgentConfig } from '@ag-ui/client';
import { EventType, type BaseEvent, type RunAgentInput } from '@ag-ui/core';
import type { AgentEvent, AgentMessage, AgentState, Approver } from '@rxagent/core';
import { serializeError } from '@rxagent/core/provider';
import { shareRun, type RunHub } from '@rxagent/core/streams';
import { Observable } from 'rxjs';
import { AGUIInputError } from './ag-ui-errors.js';
import { AGUIEventMapper } from './ag-ui-mapper.js';
import { RunApprovals } from './run-approvals.js';
import { runView } from './run-view.js';
import { toAgentMessages } from './to-agent-messages.js';

/**
 * What `start` gets to start an rxagent run for an AG-UI request.
 *
 * @example
 * const start = ({ messages, approver }: AGUIRunRequest) => runAgent({ model, tools, prompt: messages, approver });
 */
export interface AGUIRunRequest {
  /** The thread's conversation as rxagent messages (`toAgentMessages(input.messages)`). */
  messages: AgentMessage[];
  /** The approver to give the run: it waits for the front end's answer to the interrupt. */
  approver: Approver;
  /** The AG-UI request (state, tools, context, forwardedProps). */
  input: RunAgentInput;
}

/**
 * Options of `RxAgentAGUIAgent`: AG-UI's `AgentConfig` (agentId, description…) and how to run.
 *
 * @example
 * new RxAgentAGUIAgent({ agentId: 'helper', start: ({ messages, approver }) => runAgent({ model, prompt: messages, approver }) });
 */
export interface RxAgentAGUIOptions extends AgentConfig {
  start: (request: AGUIRunRequest) => Observable<AgentEvent>;
  /** The AG-UI state of a run, from its folded state (default `runView`). */
  state?: (state: AgentState) => unknown;
  /** Events kept for a run paused at an approval, to go on after it (default 10 000). */
  replay?: number;
}

/** A run of a thread, kept while it waits for an approval between two AG-UI runs. */
interface LiveRun {
  hub: RunHub;
  mapper: AGUIEventMapper;
  approvals: RunApprovals;
  /** The last event mapped (its sequence number in the hub). */
  seq: number;
  /** The approval the last AG-UI run ended on. */
  waiting?: string;
  /** Whether the hub has its own watcher, which keeps its events while no AG-UI run watches. */
  kept: boolean;
}

const ev = (type: EventType, fields: Record<string, unknown>): BaseEvent => ({ type, ...fields });

/**
 * An rxagent agent as an AG-UI agent (`AbstractAgent` of `@ag-ui/client`): `run(input)` runs
 * the thread's messages with `start` and streams AG-UI events — `RUN_STARTED`, a
 * `STATE_SNAPSHOT`, steps, text and reasoning messages, tool calls and results (typed outcome in
 * `metadata.rxagent.outcome`), `STATE_DELTA`s, `CUSTOM` `rxagent:<type>` events, then
 * `RUN_FINISHED` or `RUN_ERROR`. A tool call that needs approval ends the AG-UI run with
 * `RUN_FINISHED` `outcome: { type: 'interrupt' }` (one interrupt, id = the tool call's id) while
 * the rxagent run waits; the thread's next AG-UI run answers it with `resume` (payload
 * `{ approved, reason? }`; anything but an approval rejects) and goes on with the same run.
 * Use it in process (`agent.runAgent()`), or serve it with `agUIHandler`.
 *
 * @example
 * const agent = new RxAgentAGUIAgent({ start: ({ messages, approver }) => runAgent({ model, tools, prompt: messages, approver }) });
 * await agent.runAgent();
 */
export class RxAgentAGUIAgent extends AbstractAgent {
  private readonly live = new Map<string, LiveRun>();
  private readonly options: RxAgentAGUIOptions;

  constructor(options: RxAgentAGUIOptions) {
    super(options);
    this.options = options;
  }

  /** The threads whose run waits for an approval now. */
  get waitingThreads(): string[] {
    return [...this.live.keys()];
  }

  override run(input: RunAgentInput): ReturnType<AbstractAgent['run']> {
    return new Observable<BaseEvent>((subscriber) => {
      subscriber.next(ev(EventType.RUN_STARTED, { threadId: input.threadId, runId: input.runId }));
      let live: LiveRun;
      try {
        live = this.liveRun(input);
      } catch (error) {
        subscriber.next(runError(error));
        subscriber.complete();
        return;
      }
      live.waiting = undefined;
      subscriber.next(live.mapper.snapshot());
      for (const e of live.mapper.reopen()) subscriber.next(e);
      let ended = false;
      const end = (last: BaseEvent[], keep: boolean) => {
        ended = true;
        if (!keep) this.live.delete(input.threadId);
        for (const e of [...live.mapper.close(), ...last]) subscriber.next(e);
        subscriber.complete();
      };
      const finished = (outcome: Record<string, unknown>, result?: unknown) =>
        ev(EventType.RUN_FINISHED, {
          threadId: input.threadId,
          runId: input.runId,
          outcome,
          ...(result === undefined ? {} : { result }),
        });
      const subscription = live.hub.join(live.seq > 0 ? live.seq : undefined).subscribe({
        next: ({ id, event }) => {
          if (ended) return;
          live.seq = id;
          for (const e of live.mapper.map(event)) subscriber.next(e);
          if (event.type === 'approval-request') {
            live.waiting = event.toolCallId;
            const interrupt = {
              id: event.toolCallId,
              reason: 'tool-approval',
              toolCallId: event.toolCallId,
              message: `Approve the call of ${event.toolName}?`,
              responseSchema: APPROVAL_RESPONSE_SCHEMA,
              metadata: { rxagent: { toolName: event.toolName, args: event.args } },
            };
            end([finished({ type: 'interrupt', interrupts: [interrupt] })], true);
          } else if (event.type === 'agent-end') {
            end(
              [
                finished(
                  { type: 'success' },
                  { reason: event.reason, steps: event.steps, usage: event.usage },
                ),
              ],
              false,
            );
          }
        },
        error: (error: unknown) => {
          if (!ended) end([runError(error)], false);
        },
        complete: () => {
          if (!ended) end([finished({ type: 'cancelled' })], false);
        },
      });
      if (ended) subscription.unsubscribe();
      // Decided once this AG-UI run watches: the run may go on (and end) at once.
      for (const entry of input.resume ?? []) live.approvals.decide(entry);
      if (!live.kept) {
        // Kept running while no AG-UI run watches it (between an interrupt and its resume).
        live.kept = true;
        live.hub.events$.subscribe({ error: () => undefined });
      }
      return () => {
        subscription.unsubscribe();
        // The client left mid-run (not at an interrupt): the run stops.
        if (!ended) {
          this.live.delete(input.threadId);
          live.hub.stop();
        }
      };
    }) as unknown as ReturnType<AbstractAgent['run']>;
  }

  /** The thread's run: the paused one a `resume` answers, or a new one. */
  private liveRun(input: RunAgentInput): LiveRun {
    const paused = this.live.get(input.threadId);
    const resume = input.resume ?? [];
    if (resume.length > 0) {
      const answered = resume.find((entry) => entry.interruptId === paused?.waiting);
      if (!paused || !answered) {
        throw new AGUIInputError(
          `Nothing on thread ${input.threadId} waits for ${resume.map((e) => e.interruptId).join(', ')}: ` +
            'resume only the interrupts of the thread’s last run (its run may have ended or been replaced).',
        );
      }
      return paused;
    }
    // A new run replaces one left waiting on the thread.
    paused?.hub.stop();
    const messages = toAgentMessages(input.messages);
    const approvals = new RunApprovals();
    const hub = shareRun(this.options.start({ messages, approver: approvals.approver, input }), {
      replay: this.options.replay ?? 10_000,
    });
    const live: LiveRun = {
      hub,
      mapper: new AGUIEventMapper(this.options.state ?? runView, input.runId),
      approvals,
      seq: 0,
      kept: false,
    };
    this.live.set(input.threadId, live);
    return live;
  }

  override clone(): RxAgentAGUIAgent {
    return Object.assign(super.clone() as RxAgentAGUIAgent, { options: this.options, live: this.live });
  }
}

/** The JSON Schema of the answer to an approval interrupt. */
const APPROVAL_RESPONSE_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
};

function runError(error: unknown): BaseEvent {
  const { name, message } = serializeError(error);
  return ev(EventType.RUN_ERROR, { message: `${name}: ${message}`, code: name });
}
