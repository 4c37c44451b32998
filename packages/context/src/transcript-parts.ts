import type { Message } from '@rxagent/core';

/**
 * Where the head ends: the leading system messages and the first user message (the goal),
 * never summarized nor dropped.
 *
 * @example
 * headLength([system, goal, reply]); // 2
 */
export function headLength(messages: readonly Message[]): number {
  let i = 0;
  while (i < messages.length && messages[i]?.role === 'system') i++;
  return i < messages.length && messages[i]?.role === 'user' ? i + 1 : i;
}
