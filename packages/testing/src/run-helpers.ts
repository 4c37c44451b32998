import { lastValueFrom, tap, toArray, type Observable } from 'rxjs';
import type { AgentEvent } from '@rxagent/core';

/**
 * Subscribes to a run and resolves with all its events (rejects with its error).
 *
 * @example
 * const events = await collectEvents(runAgent(config));
 * expect(eventTypes(events)).toContain('agent-end');
 */
export function collectEvents(run$: Observable<AgentEvent>): Promise<AgentEvent[]> {
  return lastValueFrom(run$.pipe(toArray()));
}

/**
 * Subscribes to a run and resolves, whatever its end, with the events it emitted and its
 * error (undefined when it completed).
 *
 * @example
 * const { events, error } = await settleRun(runAgent(config));
 * expect(error).toBeInstanceOf(AuthError);
 */
export async function settleRun(
  run$: Observable<AgentEvent>,
): Promise<{ events: AgentEvent[]; error?: unknown }> {
  const events: AgentEvent[] = [];
  try {
    await lastValueFrom(
      run$.pipe(
        tap((event) => events.push(event)),
        toArray(),
      ),
    );
    return { events };
  } catch (error) {
    return { events, error };
  }
}

/**
 * The `type` of each event, with message roles spelled out for message events
 * (`message-end:tool`) and `message-update` runs collapsed, to assert sequences in full.
 *
 * @example
 * expect(eventTypes(events)).toEqual(['agent-start', 'turn-start', 'message-start:user', …]);
 */
export function eventTypes(
  events: readonly AgentEvent[],
  options: { collapseUpdates?: boolean } = {},
): string[] {
  const out: string[] = [];
  for (const e of events) {
    const label =
      e.type === 'message-start' || e.type === 'message-end' ? `${e.type}:${e.message.role}` : e.type;
    if (
      options.collapseUpdates !== false &&
      label === 'message-update' &&
      out[out.length - 1] === 'message-update*'
    )
      continue;
    out.push(label === 'message-update' && options.collapseUpdates !== false ? 'message-update*' : label);
  }
  return out;
}
