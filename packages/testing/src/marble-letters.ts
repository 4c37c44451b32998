import { map, type OperatorFunction } from 'rxjs';
import type { AgentEvent, AgentEventType } from '@rxagent/core';

/**
 * One letter per event type, to write whole runs as marble diagrams:
 *
 * | letter | event | letter | event |
 * |---|---|---|---|
 * | A | agent-start | s | tool-start |
 * | T | turn-start | p | tool-update |
 * | S | message-start | e | tool-end |
 * | U | message-update | q | approval-request |
 * | E | message-end | d | approval-end |
 * | N | turn-end | R | retry |
 * | C | compaction | W | warning |
 * | O | output-update | G | guardrail-start |
 * | g | guardrail-end | X | context-usage |
 * | M | summary-start | m | summary-update |
 * | K | elicitation-request | k | elicitation-end |
 * | Z | agent-end | b | subrun |
 *
 * @example
 * EVENT_LETTERS['tool-end']; // 'e'
 */
export const EVENT_LETTERS: Readonly<Record<AgentEventType, string>> = {
  'agent-start': 'A',
  'turn-start': 'T',
  'message-start': 'S',
  'message-update': 'U',
  'message-end': 'E',
  'tool-start': 's',
  'tool-update': 'p',
  'tool-end': 'e',
  'approval-request': 'q',
  'approval-end': 'd',
  'turn-end': 'N',
  retry: 'R',
  compaction: 'C',
  'context-usage': 'X',
  'summary-start': 'M',
  'summary-update': 'm',
  warning: 'W',
  'output-update': 'O',
  'guardrail-start': 'G',
  'guardrail-end': 'g',
  'elicitation-request': 'K',
  'elicitation-end': 'k',
  'agent-end': 'Z',
  subrun: 'b',
};

/**
 * Maps each event to its letter (see `EVENT_LETTERS`) so a run can be asserted with
 * `expectObservable(run$.pipe(toMarbleLetters())).toBe('(ATSE)-U-(ENZ|)')`.
 *
 * @example
 * scheduler.run(({ expectObservable }) => {
 *   expectObservable(runAgent({ model, prompt: 'hi' }).pipe(toMarbleLetters())).toBe('(ATSESU)-(ENZ|)');
 * });
 */
export function toMarbleLetters(): OperatorFunction<AgentEvent, string> {
  return map((event) => EVENT_LETTERS[event.type]);
}
