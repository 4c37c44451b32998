import type { Observable } from 'rxjs';
import type { AgentEvent } from '../events/agent-event.js';
import type { ToolCallPart, Usage } from '../messages/types.js';
import type { ToolGuardrail } from '../guardrails/guardrail.js';
import type { CallItem } from '../tools/call-settled.js';

/**
 * @internal The calls of eager tools that a model call started while its message streamed,
 * carried by the turn with that message until `executeTools` adopts them (each runs once).
 *
 * @example
 * const adopted$ = turn.eager?.adopt(call, progress);
 */
export interface EagerHandle {
  /**
   * The call's execution from here on — its items (buffered ones first), then its outcome —
   * when this call (same id, tool and arguments) was started early; undefined otherwise (the
   * caller runs it). Events the tool reports (`ctx.progress`, sub-runs) go to `progress` from now
   * on. Unsubscribing before the outcome aborts the call.
   */
  adopt(call: ToolCallPart, progress: (event: AgentEvent) => void): Observable<CallItem> | undefined;
  /** Aborts the calls `adopt` did not take. */
  dropUnadopted(): void;
  /** Aborts every call still running, adopted or not (idempotent). */
  abandon(): void;
  /** The tool guardrails the calls started early run inside. */
  readonly guardrails: readonly ToolGuardrail[];
  /** What the calls' sub-runs spent before they were adopted (failed attempts' calls included). */
  readonly spent?: Usage;
  /** A Promise tool under virtual time was warned about. */
  readonly promiseWarned: boolean;
}
