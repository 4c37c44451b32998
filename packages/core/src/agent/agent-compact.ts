import { defer, filter, from, lastValueFrom, tap, type SchedulerLike } from 'rxjs';
import type { ContextCommit, ContextManager } from '../context/context-manager.js';
import type { AgentEvent } from '../events/agent-event.js';
import type { AgentMessage } from '../messages/types.js';
import { emptyUsage } from '../messages/usage.js';

const isEvent = (value: ContextCommit | AgentEvent): value is AgentEvent => 'type' in value;

/**
 * Runs a manager's committed compaction of `messages` outside a run: its events (a summary
 * streaming) go to `emit`, and it resolves with the commit. The work is not part of any run,
 * so it gets a signal of its own; `state` is the manager's state of the conversation.
 */
export function compactTranscript(
  manager: ContextManager & Required<Pick<ContextManager, 'compact'>>,
  messages: readonly AgentMessage[],
  state: unknown,
  scheduler: SchedulerLike,
  emit: (event: AgentEvent) => void,
): Promise<ContextCommit> {
  const context = { step: 0, usage: emptyUsage(), signal: new AbortController().signal, scheduler, state };
  return lastValueFrom(
    defer(() => from(manager.compact(messages, context))).pipe(
      tap((value) => isEvent(value) && emit(value)),
      filter((value): value is ContextCommit => !isEvent(value)),
    ),
  );
}
