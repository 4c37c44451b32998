import type { AgentEndEvent, AgentEvent } from '../events/agent-event.js';

/**
 * `agent-end` of a run whose final answer has type `T` (a run with `output`).
 *
 * @example
 * const end = events.at(-1) as AgentEndEventOf<{ city: string }>;
 * console.log(end.output?.city);
 */
export type AgentEndEventOf<T> = Omit<AgentEndEvent, 'output'> & { output?: T };

/**
 * The events of a run whose final answer has type `T`: `agent-end` carries it typed.
 *
 * @example
 * runAgent({ model, prompt, output: z.object({ city: z.string() }) }).subscribe((e) => {
 *   if (e.type === 'agent-end') console.log(e.output?.city);
 * });
 */
export type AgentEventOf<T> = Exclude<AgentEvent, AgentEndEvent> | AgentEndEventOf<T>;
