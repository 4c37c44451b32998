import { RxAgentError } from './rxagent-error.js';

/**
 * Thrown by a tool to end the run after this turn's results are in the transcript
 * (`agent-end` with reason `stop-requested`). The message is the tool's result text.
 *
 * @example
 * const finish = tool({
 *   name: 'finish', description: 'Call when done', parameters: z.object({ answer: z.string() }),
 *   execute: ({ answer }) => { throw new AgentStop(answer); },
 * });
 */
export class AgentStop extends RxAgentError {
  static override readonly kind: string = 'AgentStop';
  constructor(
    readonly reason = 'Stop requested by tool.',
    readonly context?: Record<string, unknown>,
  ) {
    super(reason);
  }
}
