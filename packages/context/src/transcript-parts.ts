import type { Message } from '@rxagent/core';
import { estimateTokens } from './estimate-tokens.js';

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

/**
 * Where the recent part starts: the latest index at or after `from` from which the messages
 * hold at least `keepTokens`, moved back so that it never falls on a tool result (a call and
 * its results stay together).
 *
 * @example
 * recentStart(messages, 20_000, 2);
 */
export function recentStart(messages: readonly Message[], keepTokens: number, from: number): number {
  let tokens = 0;
  let cut = messages.length;
  while (cut > from && tokens < keepTokens) {
    cut--;
    tokens += estimateTokens(messages[cut] as Message);
  }
  while (cut > from && messages[cut]?.role === 'tool') cut--;
  return cut;
}
