import { readFileSync } from 'node:fs';
import type { AgentEvent, ChatRequest, RunSnapshot } from '@rxagent/core';
import { createWireDecoder } from '@rxagent/core/streams';
import { RunLogFormatError, RunLogVersionError } from './replay-errors.js';
import {
  RUN_LOG_FORMAT,
  RUN_LOG_VERSION,
  type LoggedRequest,
  type LoggedSnapshot,
  type MessagesDelta,
  type RecordedResponse,
  type RunLogHeader,
  type RunLogLine,
} from './run-log-format.js';

/**
 * One event of a run log: the run's event (decoded from its wire form), its sequence number,
 * and when it came (ms since the recording started).
 *
 * @example
 * for (const { seq, at, event } of log.events) console.log(seq, at, event.type);
 */
export interface LoggedEvent {
  readonly seq: number;
  readonly at: number;
  readonly event: AgentEvent;
}

/**
 * Where a snapshot sits in a log: its turn's step and the last event before it.
 *
 * @example
 * const last = log.snapshots.at(-1); // { index, step, afterSeq, at, calls }
 */
export interface LoggedSnapshotInfo {
  readonly index: number;
  readonly step: number;
  readonly afterSeq: number;
  readonly at: number;
  /** How many model calls the run had made when it was taken (the next request is call `calls`). */
  readonly calls: number;
}

/**
 * Where a log stops before the run's end.
 *
 * @example
 * if (log.cut) console.log(`the log stops at line ${log.cut.line}, after event ${log.cut.afterSeq}`);
 */
export interface RunLogCut {
  /** The 1-based line where it stops (a torn line, or one past the last). */
  readonly line: number;
  /** The last event before the cut (0 when none). */
  readonly afterSeq: number;
  readonly reason: string;
}

type SnapshotLine = LoggedSnapshotInfo & { readonly logged: LoggedSnapshot };

/** The event lines of a log, with their 1-based line numbers. */
interface EventLines {
  readonly texts: readonly string[];
  readonly numbers: readonly number[];
}

/** Event lines written by `recordRun` start so (its key order): read without parsing them. */
const EVENT_LINE = '{"kind":"event",';

function damaged(number: number, error: unknown): RunLogFormatError {
  return new RunLogFormatError(
    `Line ${number} of the run log: ${error instanceof Error ? error.message : String(error)}`,
    { cause: error },
  );
}

function decodeEventLines({ texts, numbers }: EventLines): LoggedEvent[] {
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
function seqOf(text: string | undefined): number {
  const line =
    text === undefined ? undefined : (parseLine(text) as { event?: { seq?: unknown } } | undefined);
  return typeof line?.event?.seq === 'number' ? line.event.seq : 0;
}

/** The list a chain of deltas builds, up to and including delta `upTo`. */
function rebuild<M>(deltas: readonly MessagesDelta<M>[], upTo: number): M[] {
  const list: M[] = [];
  for (let i = 0; i <= upTo; i++) {
    const delta = deltas[i] as MessagesDelta<M>;
    list.length = Math.min(list.length, delta.keep);
    for (const m of delta.add) list.push(m);
  }
  return list;
}

/**
 * A run log, read (`readRunLog`): its header, its events in order, each model request and
 * answer, each snapshot, and — when it stops before the run's end — where (`cut`).
 *
 * @example
 * const log = readRunLog(readFileSync('run.jsonl', 'utf8'));
 * console.log(log.header.runId, log.events.length, log.calls, log.cut);
 */
export class RunLog {
  private decoded?: readonly LoggedEvent[];

  /** @internal */
  constructor(
    readonly header: RunLogHeader,
    /** The event lines, decoded on first use (a fork needs only the snapshots). */
    private readonly eventLines: EventLines,
    private readonly requestLines: readonly { at: number; request: LoggedRequest }[],
    private readonly responses: readonly RecordedResponse[],
    private readonly snapshotLines: readonly SnapshotLine[],
    /** How the recording ended: the run completed, failed or was cancelled. */
    readonly end:
      { outcome: 'completed' | 'error' | 'cancelled'; error?: { name: string; message: string } } | undefined,
    /** Where the log stops, when it stops before the run's end. */
    readonly cut: RunLogCut | undefined,
  ) {}

  /**
   * The run's events in order, decoded from their wire form (on first use; a damaged event line
   * is a `RunLogFormatError` naming it).
   */
  get events(): readonly LoggedEvent[] {
    this.decoded ??= decodeEventLines(this.eventLines);
    return this.decoded;
  }

  /** How many model calls the log holds. */
  get calls(): number {
    return this.requestLines.length;
  }

  /** The model request of call `call` (0-based), whole. */
  request(call: number): ChatRequest {
    const line = this.requestLines[call];
    if (!line) throw new RangeError(`The log holds ${this.calls} model call(s); there is no call ${call}.`);
    const messages = rebuild(
      this.requestLines.map((l) => l.request.messages),
      call,
    );
    return { ...line.request, messages };
  }

  /** Every model request, in order. */
  requests(): ChatRequest[] {
    const out: ChatRequest[] = [];
    const messages: ChatRequest['messages'][number][] = [];
    for (const { request } of this.requestLines) {
      messages.length = Math.min(messages.length, request.messages.keep);
      messages.push(...request.messages.add);
      out.push({ ...request, messages: messages.slice() });
    }
    return out;
  }

  /** What model call `call` answered (undefined when the log stops first). */
  response(call: number): RecordedResponse | undefined {
    return this.responses[call];
  }

  /** The snapshots the log holds, one per turn, in order. */
  get snapshots(): readonly LoggedSnapshotInfo[] {
    return this.snapshotLines;
  }

  /** Snapshot `index` (see `snapshots`), whole, as `turn.snapshot()` gave it. */
  snapshot(index: number): RunSnapshot {
    const line = this.snapshotLines[index];
    if (!line)
      throw new RangeError(`The log holds ${this.snapshotLines.length} snapshot(s); there is no ${index}.`);
    const messages = rebuild(
      this.snapshotLines.map((l) => l.logged.messages),
      index,
    );
    const stepIndexes = rebuild(
      this.snapshotLines.map((l) => l.logged.stepIndexes),
      index,
    );
    return { ...line.logged, messages, stepIndexes };
  }
}

function parseLine(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

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
  const requests: { at: number; request: LoggedRequest }[] = [];
  const responses: RecordedResponse[] = [];
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
        requests[line.call] = { at: line.at, request: line.request };
        break;
      case 'response': {
        const { kind: _kind, at: _at, ...response } = line;
        responses[line.call] = response;
        break;
      }
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
