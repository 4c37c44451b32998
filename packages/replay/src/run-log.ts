import type { AgentEvent, ChatRequest, Message, RunSnapshot } from '@rxagent/core';
import { decodeEventLines, type EventLines } from './event-lines.js';
import type { LazyLines } from './lazy-lines.js';
import type {
  LoggedRequest,
  LoggedSnapshot,
  MessagesDelta,
  RecordedResponse,
  RunLogHeader,
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

/** A snapshot line as read. @internal */
export type SnapshotLine = LoggedSnapshotInfo & { readonly logged: LoggedSnapshot };

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
    private readonly requestLines: LazyLines<{ at: number; request: LoggedRequest }>,
    private readonly responses: LazyLines<RecordedResponse>,
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
    const line = this.requestLines.get(call);
    if (!line) throw new RangeError(`The log holds ${this.calls} model call(s); there is no call ${call}.`);
    const deltas: MessagesDelta<Message>[] = [];
    for (let i = 0; i <= call; i++) deltas.push(this.loggedRequest(i).messages);
    return { ...line.request, messages: rebuild(deltas, call) };
  }

  /** Every model request, in order. */
  requests(): ChatRequest[] {
    const out: ChatRequest[] = [];
    const messages: ChatRequest['messages'][number][] = [];
    for (let call = 0; call < this.calls; call++) {
      const request = this.loggedRequest(call);
      messages.length = Math.min(messages.length, request.messages.keep);
      messages.push(...request.messages.add);
      out.push({ ...request, messages: messages.slice() });
    }
    return out;
  }

  /** What model call `call` answered (undefined when the log stops first). */
  response(call: number): RecordedResponse | undefined {
    return this.responses.get(call);
  }

  private loggedRequest(call: number): LoggedRequest {
    const line = this.requestLines.get(call);
    if (!line) throw new RangeError(`The log holds no request of model call ${call}.`);
    return line.request;
  }

  /** The snapshots the log holds, one per turn, in order. */
  get snapshots(): readonly LoggedSnapshotInfo[] {
    return this.snapshotLines;
  }

  /** Snapshot `index` as logged (its messages as a change to the previous one's). @internal */
  loggedSnapshot(index: number): LoggedSnapshot | undefined {
    return this.snapshotLines[index]?.logged;
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
