import type { AgentEvent } from '../events/agent-event.js';
import type { StopReason, StopSignal } from '../events/stop-signal.js';
import type { AgentMessage, Usage } from '../messages/types.js';
import type { Session } from '../session/session.js';
import type { AgentState } from '../state/agent-state.js';
import type { RunAgentConfig } from '../turn/run-config.js';

/**
 * What `new Agent()` takes: a run config without the per-run keys, plus the first transcript.
 *
 * @example
 * const config: AgentConfig = { model, tools: [weather], system: 'Be brief.', messages: savedTranscript };
 */
export interface AgentConfig extends Omit<
  RunAgentConfig,
  'prompt' | 'messages' | 'signal' | 'steering$' | 'followUp$' | 'runId'
> {
  /** The transcript to start from. */
  messages?: readonly AgentMessage[];
  /**
   * Where the conversation persists: loaded before the first run, each completed message
   * appended (instead of `messages`).
   */
  session?: Session;
  /** Where a throwing listener (or a failed auto-resumed run) is reported. Default: console.error. */
  onError?: (error: unknown, context: string) => void;
}

/**
 * What a run of the agent produced.
 *
 * @example
 * const result: AgentRunResult = await agent.prompt('Weather in Paris?');
 * if (result.reason === 'completed') console.log(assistantText(result.messages.at(-1)));
 */
export interface AgentRunResult<TOutput = unknown> {
  reason: StopReason;
  signal: StopSignal;
  /** The messages this run appended to the transcript. */
  messages: AgentMessage[];
  usage: Usage;
  steps: number;
  /** The validated final answer, for an agent with `output`. */
  output?: TOutput;
}

/**
 * Called with each event and the state after folding it.
 *
 * @example
 * const log: AgentListener = (event, state) => console.log(event.type, state.phase);
 * const unsubscribe = agent.subscribe(log);
 */
export type AgentListener = (event: AgentEvent, state: AgentState) => void;

/**
 * How a queued message will be delivered.
 *
 * @example
 * const outcome: QueueOutcome = agent.steer('Skip the tests folder.'); // 'steered' while a run is active
 */
export type QueueOutcome = 'steered' | 'resumed' | 'queued';
