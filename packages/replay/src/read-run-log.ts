import { readFileSync } from 'node:fs';
import { EVENT_LINE, parseLine, seqOf, type EventLines } from './event-lines.js';
import { callOf, LazyLines } from './lazy-lines.js';
import { RunLogFormatError, RunLogVersionError } from './replay-errors.js';
import {
  RUN_LOG_FORMAT,
  RUN_LOG_VERSION,
  type LoggedRequest,
  type RecordedResponse,
  type RunLogHeader,
  type RunLogLine,
} from './run-log-format.js';
import { RunLog, type RunLogCut, type SnapshotLine } from './run-log.js';

const REQUEST_LINE = '{"kind":"request",';

function header(first: string | undefined): RunLogHeader {
  const value = first === undefined ? undefined : parseLine(first);
  const h = value as Partial<RunLogHeader> | undefined;
  if (typeof h !== 'object' || h === null || h.format !== RUN_LOG_FORMAT) {
    throw new RunLogFormatError(
      `Not an rxagent run log: its first line is not a "${RUN_LOG_FORMAT}" header. Read logs written by recordRun.`,
    );
  }
  if (h.version !== RUN_LOG_VERSION) throw new RunLogVersionError(h.version, RUN_LOG_VERSION);
  return h as RunLogHeader;
}

/**
 * Reads a run log from its JSON-lines text or its lines (`memoryLog().lines`, `readSessionLog`).
 * A log of another format version is a `RunLogVersionError` naming both; one that stops before
 * the run's end (a torn last line, no end line) is read up to there and says where (`cut`).
 *
 * @param source The log's text, or its lines.
 * @return The log.
 *
 * @example
 * const log = readRunLog(memory.lines);
 * replayRun(log).subscribe(render);
 */
export function readRunLog(source: string | readonly string[]): RunLog {
  const all = typeof source === 'string' ? source.split('\n') : source;
  let count = all.length;
  while (count > 0 && (all[count - 1] as string).trim() === '') count--;
  const head = header(all[0]);
  const eventTexts: string[] = [];
  const eventNumbers: number[] = [];
  // Requests and answers are parsed when first asked for (a fork needs neither).
  const requests = new LazyLines((line) => {
    const { at, request } = line as { at: number; request: LoggedRequest };
    return { at, request };
  });
  const responses = new LazyLines<RecordedResponse>((line) => {
    const { kind: _kind, at: _at, ...response } = line as RunLogLine & { kind: 'response' };
    return response;
  });
  const snapshots: SnapshotLine[] = [];
  let end: RunLog['end'];
  let cut: RunLogCut | undefined;
  for (let i = 1; i < count; i++) {
    const text = all[i] as string;
    if (text.trim() === '') continue;
    const last = i === count - 1;
    if (text.startsWith(EVENT_LINE) && !(last && parseLine(text) === undefined)) {
      eventTexts.push(text);
      eventNumbers.push(i + 1);
      continue;
    }
    const call = last ? undefined : callOf(text);
    if (call !== undefined) {
      (text.startsWith(REQUEST_LINE) ? requests : responses).keep(call, text, i + 1);
      continue;
    }
    const line = parseLine(text) as RunLogLine | undefined;
    if (typeof line !== 'object' || line === null) {
      if (last) {
        cut = { line: i + 1, afterSeq: seqOf(eventTexts.at(-1)), reason: 'its last line is torn' };
        break;
      }
      throw new RunLogFormatError(`Line ${i + 1} of the run log is not JSON: the log is damaged there.`);
    }
    switch (line.kind) {
      case 'event':
        eventTexts.push(text);
        eventNumbers.push(i + 1);
        break;
      case 'request':
        requests.keep(line.call, text, i + 1);
        break;
      case 'response':
        responses.keep(line.call, text, i + 1);
        break;
      case 'snapshot':
        snapshots.push({
          index: snapshots.length,
          step: line.snapshot.step,
          afterSeq: line.afterSeq,
          at: line.at,
          calls: requests.length,
          logged: line.snapshot,
        });
        break;
      case 'end':
        end = { outcome: line.outcome, ...(line.error ? { error: line.error } : {}) };
        break;
      default:
        break; // a line kind of a newer writer of the same version: not needed to replay
    }
  }
  if (!end && !cut) {
    cut = {
      line: count + 1,
      afterSeq: seqOf(eventTexts.at(-1)),
      reason: 'the recording stopped without the end line',
    };
  }
  const events: EventLines = { texts: eventTexts, numbers: eventNumbers };
  return new RunLog(head, events, requests, responses, snapshots, end, cut);
}

/**
 * Reads the run log in a file (`fileLog`), as `readRunLog` does.
 *
 * @example
 * replayRun(readRunLogFile('run.jsonl')).subscribe(render);
 */
export function readRunLogFile(path: string): RunLog {
  return readRunLog(readFileSync(path, 'utf8'));
}
