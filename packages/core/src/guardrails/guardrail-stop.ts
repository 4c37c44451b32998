import type { StopSignal } from '../events/stop-signal.js';
import { AgentStop } from '../errors/agent-stop.js';

/**
 * A tool guardrail tripped: the batch stops like after `AgentStop`, and the run ends with the
 * guardrail's signal (reason `guardrail`) instead of `stop-requested`. Internal.
 */
export class GuardrailStop extends AgentStop {
  static override readonly kind: string = 'GuardrailStop';
  constructor(readonly signal: StopSignal) {
    super(signal.message, signal.context);
  }
}
