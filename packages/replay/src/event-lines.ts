import type { AgentEvent } from '@rxagent/core';
import { createWireDecoder } from '@rxagent/core/streams';
import { RunLogFormatError } from './replay-errors.js';
import type { RunLogLine } from './run-log-format.js';
import type { LoggedEvent } from './run-log.js';

/** The event lines of a log, with their 1-based line numbers. @internal */
export interface EventLines {
  readonly texts: readonly string[];
  readonly numbers: readonly number[];
}

/** Event lines written by `recordRun` start so (its key order): read without parsing them. */
export const EVENT_LINE = '{"kind":"event",';

function damaged(number: number, error: unknown): RunLogFormatError {
  return new RunLogFormatError(
    `Line ${number} of the run log: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

export function decodeEventLines({ texts, numbers }: EventLines): LoggedEvent[] {
  const decoder = createWireDecoder();
  const events: LoggedEvent[] = [];
  for (let i = 0; i < texts.length; i++) {
    const number = numbers[i] as number;
    let line: Extract<RunLogLine, { kind: 'event' }>;
    let event: AgentEvent | undefined;
    try {
      line = JSON.parse(texts[i] as string) as typeof line;
    } catch {
      throw new RunLogFormatError(`Line ${number} of the run log is not JSON: the log is damaged there.`);
    }
    try {
      event = decoder.decode(line.event);
    } catch (error) {
      throw damaged(number, error);
    }
    if (event) events.push({ seq: line.event.seq, at: line.at, event });
  }
  return events;
}

/** The sequence number of an event line (0 when it has none). */
export function seqOf(text: string | undefined): number {
  const line =
    text === undefined ? undefined : (parseLine(text) as { event?: { seq?: unknown } } | undefined);
  return typeof line?.event?.seq === 'number' ? line.event.seq : 0;
}

/** The JSON of a line, or undefined when it is not JSON. */
export function parseLine(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
